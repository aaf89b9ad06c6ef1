// A consumer of a recorded scenario written with Shopify/sarama's ConsumerGroup: go run sarama_consumer.go SPEC_JSON
// (see tests/clients/consumer.py for the spec and the commands on stdin).
//
// Its log is sarama's own, enabled the way sarama's users enable it
// (sarama.Logger = log.New(os.Stdout, "[sarama] ", log.LstdFlags)), on stdout; the truth comes from the
// ConsumerGroupHandler's Setup (assigned: the session's claims, member id and generation) and Cleanup
// (revoked), one JSON object a line in the spec's truth file.
package main

import (
	"context"
	"fmt"
	"log"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/Shopify/sarama"
)

func parts(claims map[string][]int32) []string {
	out := []string{}
	for topic, ps := range claims {
		for _, p := range ps {
			out = append(out, fmt.Sprintf("%s-%d", topic, p))
		}
	}
	sort.Strings(out)
	return out
}

type handler struct{ t *truth }

func (h handler) Setup(s sarama.ConsumerGroupSession) error {
	h.t.write("assigned", map[string]any{"partitions": parts(s.Claims()), "member_id": s.MemberID(), "generation": s.GenerationID()})
	return nil
}

func (h handler) Cleanup(s sarama.ConsumerGroupSession) error {
	h.t.write("revoked", map[string]any{"partitions": parts(s.Claims()), "member_id": s.MemberID(), "generation": s.GenerationID()})
	return nil
}

func (h handler) ConsumeClaim(s sarama.ConsumerGroupSession, c sarama.ConsumerGroupClaim) error {
	for m := range c.Messages() {
		s.MarkMessage(m, "")
	}
	return nil
}

// patientRange is sarama's range strategy taking leaderDelay first: librdkafka's mock cluster answers
// SyncGroup as soon as the leader's assignment covers every member and refuses a follower's SyncGroup
// that arrives later (a real broker waits for both; see tests/clients/consumer.py).
type patientRange struct{ sarama.BalanceStrategy }

const leaderDelay = 50 * time.Millisecond

func (p patientRange) Plan(members map[string]sarama.ConsumerGroupMemberMetadata, topics map[string][]int32) (sarama.BalanceStrategyPlan, error) {
	time.Sleep(leaderDelay)
	return p.BalanceStrategy.Plan(members, topics)
}

func main() {
	sp, t := openScenario()
	sarama.Logger = log.New(os.Stdout, "[sarama] ", log.LstdFlags)

	conf := sarama.NewConfig()
	conf.Version = sarama.V2_0_0_0
	conf.ClientID = "sarama-" + sp.Who
	conf.Consumer.Offsets.Initial = sarama.OffsetOldest
	conf.Consumer.Group.Session.Timeout = ms(sp.Config, "session_timeout_ms", 10000)
	conf.Consumer.Group.Heartbeat.Interval = ms(sp.Config, "heartbeat_interval_ms", 3000)
	conf.Consumer.Group.Rebalance.Timeout = ms(sp.Config, "rebalance_timeout_ms", 60000)
	conf.Consumer.Group.Rebalance.Strategy = patientRange{sarama.BalanceStrategyRange}
	group, err := sarama.NewConsumerGroup(strings.Split(sp.Bootstrap, ","), sp.Group, conf)
	if err != nil {
		panic(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		for ctx.Err() == nil {
			if err := group.Consume(ctx, []string{sp.Topic}, handler{t}); err != nil {
				time.Sleep(100 * time.Millisecond)
			}
		}
	}()
	waitClose(t)
	cancel()
	<-done
	group.Close()
	t.write("closed", nil)
}
