// What every Go consumer of a recorded scenario shares (built with each program by
// tests/clients/toolchains.py): the spec it is given (tests/clients/consumer.py), the truth file it
// writes one JSON object a line to, and the wait for the recorder's "close" on stdin.

package main

import (
	"bufio"
	"encoding/json"
	"os"
	"strings"
	"sync"
	"time"
)

type spec struct {
	Who       string         `json:"who"`
	Bootstrap string         `json:"bootstrap"`
	Group     string         `json:"group"`
	Topic     string         `json:"topic"`
	Truth     string         `json:"truth"`
	Config    map[string]any `json:"config"`
}

type truth struct {
	mu  sync.Mutex
	fh  *os.File
	who string
}

func (t *truth) write(what string, kw map[string]any) {
	row := map[string]any{"t": time.Now().UnixMilli(), "who": t.who, "what": what}
	for k, v := range kw {
		row[k] = v
	}
	b, _ := json.Marshal(row)
	t.mu.Lock()
	defer t.mu.Unlock()
	t.fh.Write(append(b, '\n'))
	t.fh.Sync()
}

func ms(conf map[string]any, key string, def int) time.Duration {
	if v, ok := conf[key].(float64); ok {
		return time.Duration(v) * time.Millisecond
	}
	return time.Duration(def) * time.Millisecond
}

// openScenario reads the spec (the first argument) and opens its truth file.
func openScenario() (spec, *truth) {
	var sp spec
	if err := json.Unmarshal([]byte(os.Args[1]), &sp); err != nil {
		panic(err)
	}
	fh, err := os.OpenFile(sp.Truth, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		panic(err)
	}
	return sp, &truth{fh: fh, who: sp.Who}
}

// waitClose writes "started" and returns when the recorder sends "close" (or closes stdin).
func waitClose(t *truth) {
	t.write("started", nil)
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		if strings.TrimSpace(in.Text()) == "close" {
			break
		}
	}
}
