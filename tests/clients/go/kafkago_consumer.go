// A consumer of a recorded scenario written with segmentio/kafka-go's Reader in a consumer group:
// go build -overlay (tests/clients/toolchains.py) then kafkago_consumer SPEC_JSON (see
// tests/clients/consumer.py for the spec and the commands on stdin: close).
//
// Its log is the Reader's own, through the ReaderConfig's Logger and ErrorLogger as std log.Loggers on
// stderr. kafka-go 0.2 has no rebalance callback: the truth is the Reader's own group state
// (kafkago_hook/truth_hook.go.in), polled every 2 ms: "assigned" when the Reader started partition
// readers for a new assignment (after SyncGroup), with the generation and member id of that join.
package main

import (
	"context"
	"log"
	"os"
	"strings"
	"time"

	kafka "github.com/segmentio/kafka-go"
)

// watch writes "assigned" each time the Reader subscribed to a new assignment.
func watch(ctx context.Context, r *kafka.Reader, t *truth) {
	var seen int64
	for ctx.Err() == nil {
		if v, gen, member := r.GroupState(); v != seen {
			seen = v
			t.write("assigned", map[string]any{"partitions": []string{}, "member_id": member, "generation": gen})
		}
		time.Sleep(2 * time.Millisecond)
	}
}

func main() {
	sp, t := openScenario()
	logger := log.New(os.Stderr, "", log.LstdFlags|log.Lmicroseconds)
	r := kafka.NewReader(kafka.ReaderConfig{
		Brokers:           strings.Split(sp.Bootstrap, ","),
		GroupID:           sp.Group,
		Topic:             sp.Topic,
		SessionTimeout:    ms(sp.Config, "session_timeout_ms", 30000),
		HeartbeatInterval: ms(sp.Config, "heartbeat_interval_ms", 3000),
		MaxWait:           ms(sp.Config, "max_wait_ms", 10000),
		Logger:            logger,
		ErrorLogger:       logger,
	})
	ctx, cancel := context.WithCancel(context.Background())
	go watch(ctx, r, t)
	go func() {
		for ctx.Err() == nil {
			if _, err := r.ReadMessage(ctx); err != nil {
				time.Sleep(50 * time.Millisecond)
			}
		}
	}()
	waitClose(t)
	_, _, mid := r.GroupState()
	cancel()
	r.Close()
	t.write("closed", map[string]any{"member_id": mid})
}
