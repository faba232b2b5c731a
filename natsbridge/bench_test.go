package natsbridge_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/nats-io/nats.go/micro"

	"github.com/opentoolgen/opentoolgen/examples/mocktool/mocktool"
	"github.com/opentoolgen/opentoolgen/internal/testtool"
	"github.com/opentoolgen/opentoolgen/natsbridge"
	"github.com/opentoolgen/opentoolgen/runtime"
)

// BenchmarkNATSCall: calls/s of the generated mock tool (mocktool.NewTool)
// served by natsbridge and called through its typed client over
// natsbridge.Caller, against a hand-written micro service doing the same
// work (decode {"id":…}, Store.Read, encode {"text":…}) called with
// nc.Request and json decoding; and the generated tool served one call at a
// time, as the micro handler runs (serial: WithMaxConcurrent(1)). All on one
// embedded server, the service and
// the caller on connections of their own, one call at a time (c=1) and 32 at
// once (c=32). cpu-µs/call is the CPU time of the whole process (server,
// service and callers) per call: the figure to compare on a busy machine.
//
//	go test -run '^$' -bench BenchmarkNATSCall -benchtime 3s ./natsbridge/
func BenchmarkNATSCall(b *testing.B) {
	url := startServer(b)
	store := testtool.NewStore("hello")

	tool, err := mocktool.NewTool(store)
	if err != nil {
		b.Fatal(err)
	}
	serve(b, url, tool, natsbridge.WithPrefix("gen"))
	gen := mocktool.NewClient(natsbridge.NewCaller(connect(b, url), "gen"))
	serve(b, url, tool, natsbridge.WithPrefix("serial"), natsbridge.WithMaxConcurrent(1))
	serial := mocktool.NewClient(natsbridge.NewCaller(connect(b, url), "serial"))

	svc, err := micro.AddService(connect(b, url), micro.Config{Name: "hand", Version: "1.0.0"})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { svc.Stop() })
	err = svc.AddEndpoint("read", micro.HandlerFunc(func(r micro.Request) {
		var args struct {
			ID int64 `json:"id"`
		}
		if err := json.Unmarshal(r.Data(), &args); err != nil {
			r.Error("-32602", err.Error(), nil)
			return
		}
		text, err := store.Read(context.Background(), mocktool.ReadArgs{ID: mocktool.ID(args.ID)})
		if err != nil {
			r.Error("500", err.Error(), nil)
			return
		}
		out, _ := json.Marshal(struct {
			Text mocktool.Text `json:"text"`
		}{text})
		r.Respond(out)
	}), micro.WithEndpointSubject("hand.read"))
	if err != nil {
		b.Fatal(err)
	}
	hc := connect(b, url)
	hc.Flush()
	hand := func(ctx context.Context) (mocktool.Text, error) {
		req, _ := json.Marshal(struct {
			ID int64 `json:"id"`
		}{0})
		m, err := hc.RequestWithContext(ctx, "hand.read", req)
		if err != nil {
			return "", err
		}
		if m.Header.Get(micro.ErrorCodeHeader) != "" {
			return "", runtime.NewError(500, m.Header.Get(micro.ErrorHeader))
		}
		var out struct {
			Text mocktool.Text `json:"text"`
		}
		err = json.Unmarshal(m.Data, &out)
		return out.Text, err
	}
	calls := map[string]func(context.Context) (mocktool.Text, error){
		"generated": func(ctx context.Context) (mocktool.Text, error) { return gen.Read(ctx, mocktool.ReadArgs{ID: 0}) },
		"hand":      hand,
		"serial":    func(ctx context.Context) (mocktool.Text, error) { return serial.Read(ctx, mocktool.ReadArgs{ID: 0}) },
	}
	for _, c := range []int{1, 32} {
		for _, name := range []string{"generated", "serial", "hand"} {
			call := calls[name]
			b.Run(name+"/c="+itoa(c), func(b *testing.B) {
				check := func(text mocktool.Text, err error) {
					if err != nil || text != "hello" {
						b.Fatalf("%q, %v", text, err)
					}
				}
				check(call(context.Background()))
				b.ReportAllocs()
				b.ResetTimer()
				cpu0 := cpuTime()
				if c == 1 {
					for b.Loop() {
						check(call(context.Background()))
					}
				} else {
					b.SetParallelism((c + gomaxprocs() - 1) / gomaxprocs())
					b.RunParallel(func(pb *testing.PB) {
						for pb.Next() {
							check(call(context.Background()))
						}
					})
				}
				b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "calls/s")
				if cpu := cpuTime() - cpu0; cpu > 0 {
					b.ReportMetric(float64(cpu.Microseconds())/float64(b.N), "cpu-µs/call")
				}
			})
		}
	}
}
