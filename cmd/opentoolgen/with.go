package main

import (
	"fmt"
	"strings"
)

// withOptions is -with: the fronts and exporters a -cmd main links beyond
// its default ones (OpenTool HTTP and MCP): nats (the nats and exec
// commands, package toolcli/natscli) and otel (OpenTelemetry export,
// package toolcli/otelcli). A comma-separated list, the flag repeatable.
type withOptions struct{ nats, otel bool }

// withNames are the values of -with, in the order the help gives them.
var withNames = []string{"nats", "otel"}

// withAliases are names a user may give an option of -with by.
var withAliases = map[string]string{
	"exec": "nats", "jetstream": "nats", "natsexec": "nats", "natsbridge": "nats",
	"opentelemetry": "otel", "telemetry": "otel", "otlp": "otel", "tracing": "otel",
}

func (w *withOptions) String() string {
	var on []string
	if w.nats {
		on = append(on, "nats")
	}
	if w.otel {
		on = append(on, "otel")
	}
	return strings.Join(on, ",")
}

func (w *withOptions) Set(v string) error {
	for _, name := range strings.Split(v, ",") {
		switch name = strings.ToLower(strings.TrimSpace(name)); name {
		case "nats":
			w.nats = true
		case "otel":
			w.otel = true
		case "":
			return fmt.Errorf("an empty name in %q: want nats, otel, or both as nats,otel", v)
		default:
			msg := fmt.Sprintf("unknown %q", name)
			if near := nearestWith(name); near != "" {
				msg += " (did you mean " + near + "?)"
			}
			return fmt.Errorf("%s: want nats (the nats and exec commands), otel (OpenTelemetry export), or both as nats,otel", msg)
		}
	}
	return nil
}

// nearestWith returns the value of -with that name was most likely meant
// as: an alias's, else the one at the smallest edit distance within a third
// of name's length plus one; "" when none is that near.
func nearestWith(name string) string {
	if to, ok := withAliases[name]; ok {
		return to
	}
	best, bestD := "", len(name)/3+2
	for _, cand := range withNames {
		if d := editDistance(name, cand); d < bestD {
			best, bestD = cand, d
		}
	}
	return best
}
