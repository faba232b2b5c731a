package main

import (
	"io"
	"strings"
	"testing"
)

// TestWithFlag checks -with: its names, given together or repeated, its
// suggestions for a mistyped name, and that it needs -cmd.
func TestWithFlag(t *testing.T) {
	for _, c := range []struct {
		args       []string
		nats, otel bool
		err        string // "" for none
	}{
		{args: []string{"-cmd", "c", "-with", "nats"}, nats: true},
		{args: []string{"-cmd", "c", "-with", "nats,otel"}, nats: true, otel: true},
		{args: []string{"-cmd", "c", "-with", "otel", "-with", "NATS"}, nats: true, otel: true},
		{args: []string{"-cmd", "c"}},
		{args: []string{"-cmd", "c", "-with", "natz"}, err: `unknown "natz" (did you mean nats?)`},
		{args: []string{"-cmd", "c", "-with", "opentelemetry"}, err: `(did you mean otel?)`},
		{args: []string{"-cmd", "c", "-with", "nats,"}, err: "an empty name"},
		{args: []string{"-with", "otel"}, err: "-with otel needs -cmd DIR"},
	} {
		o, err := parseFlags(append(c.args, "doc.json"), io.Discard)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q: got error %v, want one with %q", c.args, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", c.args, err)
			continue
		}
		if o.with.nats != c.nats || o.with.otel != c.otel {
			t.Errorf("%q: got nats %v otel %v, want %v %v", c.args, o.with.nats, o.with.otel, c.nats, c.otel)
		}
	}
}
