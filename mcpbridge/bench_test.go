package mcpbridge_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/opentoolgen/opentoolgen/examples/weather/weathertool"
	"github.com/opentoolgen/opentoolgen/mcpbridge"
)

// currentWeather is the result of get_current_weather as the typed SDK tool
// returns it: the same object the bridge answers.
type currentWeather struct {
	CurrentWeather string `json:"currentWeather"`
}

// typedServer registers weather's get_current_weather with the SDK's typed
// mcp.AddTool: input and output schemas inferred from the Go types by
// reflection, arguments unmarshalled and validated by the SDK.
func typedServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "typed", Version: "1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "get_current_weather", Description: "Get the current weather"},
		func(ctx context.Context, _ *mcp.CallToolRequest, in weathertool.GetCurrentWeatherArgs) (*mcp.CallToolResult, currentWeather, error) {
			r, err := weather{}.GetCurrentWeather(ctx, in)
			return nil, currentWeather{r}, err
		})
	return s
}

// bridgeServer serves the generated weathertool.Tool through mcpbridge.
func bridgeServer(b *testing.B) *mcp.Server {
	tool, err := weathertool.NewTool(weather{})
	if err != nil {
		b.Fatal(err)
	}
	s, err := mcpbridge.NewServer(context.Background(), tool, nil)
	if err != nil {
		b.Fatal(err)
	}
	return s
}

// BenchmarkMCPCall measures calls of one function through MCP with the SDK's
// client: served by mcpbridge from the generated package, next to the same
// function registered with the SDK's typed mcp.AddTool, over the in-memory
// transport and over streamable HTTP (loopback).
//
// The "alternating" benchmarks make one call of each per iteration, in turns
// (bridge first on even iterations, typed first on odd ones), and report each
// side's calls per second of its own time: both see the same machine load. The
// "bridge" and "typed" benchmarks run one side alone, for its allocations.
//
//	go test ./mcpbridge -run '^$' -bench MCPCall -count 3
func BenchmarkMCPCall(b *testing.B) {
	for _, tr := range []string{"memory", "http"} {
		b.Run(tr+"/alternating", func(b *testing.B) {
			bridge := session(b, tr, bridgeServer(b))
			typed := session(b, tr, typedServer())
			var tb, tt time.Duration
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; b.Loop(); i++ {
				if i%2 == 0 {
					tb += timedCall(b, bridge)
					tt += timedCall(b, typed)
				} else {
					tt += timedCall(b, typed)
					tb += timedCall(b, bridge)
				}
			}
			b.ReportMetric(float64(b.N)/tb.Seconds(), "bridge-calls/s")
			b.ReportMetric(float64(b.N)/tt.Seconds(), "typed-calls/s")
		})
		for _, kind := range []string{"bridge", "typed"} {
			b.Run(tr+"/"+kind, func(b *testing.B) {
				var cs *mcp.ClientSession
				if kind == "bridge" {
					cs = session(b, tr, bridgeServer(b))
				} else {
					cs = session(b, tr, typedServer())
				}
				b.ReportAllocs()
				b.ResetTimer()
				for b.Loop() {
					timedCall(b, cs)
				}
				b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "calls/s")
			})
		}
	}
}

var benchArgs = map[string]any{"currentWeatherInfo": map[string]any{"location": "San Francisco, CA", "format": "celsius"}}

// timedCall calls get_current_weather and returns how long it took. The
// params are new each time: the client writes the session's protocol version
// into their _meta.
func timedCall(b *testing.B, cs *mcp.ClientSession) time.Duration {
	start := time.Now()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "get_current_weather", Arguments: benchArgs})
	d := time.Since(start)
	if err != nil || res.IsError {
		b.Fatal(err, res)
	}
	return d
}

// session connects the SDK's client to server over the named transport; the
// benchmark's cleanup closes both.
func session(b *testing.B, transport string, server *mcp.Server) *mcp.ClientSession {
	ctx := context.Background()
	var ct mcp.Transport
	switch transport {
	case "memory":
		st, c := mcp.NewInMemoryTransports()
		ss, err := server.Connect(ctx, st, nil)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { ss.Close() })
		ct = c
	case "http":
		srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil))
		b.Cleanup(srv.Close)
		ct = &mcp.StreamableClientTransport{Endpoint: srv.URL, MaxRetries: -1}
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { cs.Close() })
	return cs
}
