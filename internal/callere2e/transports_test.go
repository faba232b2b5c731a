package callere2e

// One typed client, generated from testdata/golden/catalog/catalog.json, over
// every transport it takes (a runtime.Caller): the generated Tool served over
// OpenTool HTTP and called with a *runtime.Client, the same Tool through
// runtime.Local, and the same Tool served over MCP (mcpbridge, the SDK's
// in-memory transport) and called through mcpbridge.Tool and runtime.Local.
// Every case must give the same typed values and the same errors (class, code,
// message, data, errors.Is) over the three; over MCP a stream's items come as
// progress notifications (mcpbridge.NewClient routes them to the call).
// Over NATS the Tool is a micro service (natsbridge) on an embedded server,
// called through natsbridge.Caller.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/nats-io/nats.go"

	"github.com/opentoolgen/opentoolgen/mcpbridge"
	"github.com/opentoolgen/opentoolgen/natsbridge"
	"github.com/opentoolgen/opentoolgen/runtime"
	catalog "github.com/opentoolgen/opentoolgen/testdata/golden/catalog"
)

// shop implements catalog.Service. Some SKUs behave in their own way:
// BRK-001 fails with a plain error, SLO-001 waits for its caller to go,
// ERR-001 streams two prices then fails, INF-001 streams for ever.
type shop struct {
	items map[catalog.SKU]catalog.Item
	stock map[catalog.SKU]int64

	started chan struct{} // a call of SLO-001 started
	ended   chan string   // what a call or stream saw when its caller went
}

func newShop() *shop {
	return &shop{
		items: map[catalog.SKU]catalog.Item{
			"ABC-123": {Sku: "ABC-123", Name: "Kettle", Price: 24.5, Tags: []string{"kitchen", "электро"}},
			"DEF-456": {Sku: "DEF-456", Name: "Mug", Price: 4},
			"GHI-789": {Sku: "GHI-789", Name: "Teapot \"Ming\"", Price: 1e-3},
		},
		stock:   map[catalog.SKU]int64{"ABC-123": 2, "DEF-456": 10},
		started: make(chan struct{}, 1),
		ended:   make(chan string, 1),
	}
}

func (s *shop) GetItem(_ context.Context, a catalog.GetItemArgs) (catalog.Item, error) {
	it, ok := s.items[a.Sku]
	if !ok {
		return catalog.Item{}, &runtime.Error{Code: 404, Message: "no item " + string(a.Sku), Data: json.RawMessage(`{"sku":"` + a.Sku + `"}`)}
	}
	return it, nil
}

func (s *shop) CountItems(context.Context) (int64, error) { return int64(len(s.items)), nil }

func (s *shop) Reserve(ctx context.Context, a catalog.ReserveArgs) (string, error) {
	switch a.Sku {
	case "BRK-001":
		return "", errors.New("disk on fire")
	case "SLO-001":
		s.started <- struct{}{}
		s.ended <- waitDone(ctx)
		return "", ctx.Err()
	}
	if have := s.stock[a.Sku]; a.Quantity > have {
		return "", &runtime.Error{Code: 409, Message: fmt.Sprintf("only %d left", have), Data: json.RawMessage(fmt.Sprintf(`{"available":%d}`, have))}
	}
	return fmt.Sprintf("R-%s-%d", a.Sku, a.Quantity), nil
}

func (s *shop) WatchPrice(ctx context.Context, a catalog.WatchPriceArgs, emit func(float64) error) error {
	switch a.Sku {
	case "ERR-001":
		for _, p := range []float64{1, 2} {
			if err := emit(p); err != nil {
				return err
			}
		}
		return runtime.NewError(503, "the price feed is down")
	case "INF-001":
		for i := 0; ; i++ {
			if err := emit(float64(i)); err != nil {
				s.ended <- "emit failed (" + waitDone(ctx) + ")"
				return err
			}
		}
	}
	it, ok := s.items[a.Sku]
	if !ok {
		return runtime.NewError(404, "no item "+string(a.Sku))
	}
	for _, d := range []float64{0, 0.5, -0.75} {
		if err := emit(it.Price + d); err != nil {
			return err
		}
	}
	return nil
}

// waitDone waits for ctx to end and says how: a bound on a failure, not a
// synchronisation.
func waitDone(ctx context.Context) string {
	select {
	case <-ctx.Done():
		return "ctx: " + ctx.Err().Error()
	case <-time.After(10 * time.Second):
		return "ctx still running 10 s after the caller went"
	}
}

// transport is one way to reach the tool.
type transport struct {
	name string
	c    *catalog.Client
}

func transports(t *testing.T, tool runtime.Tool) []transport {
	t.Helper()
	srv := httptest.NewServer(runtime.NewHandler(tool))
	t.Cleanup(srv.Close)
	return []transport{
		{"http", catalog.NewClient(runtime.NewClient(srv.URL + runtime.DefaultPrefix))},
		{"local", catalog.NewClient(runtime.Local(tool))},
		{"mcp", catalog.NewClient(runtime.Local(mcpTool(t, tool)))},
		{"nats", catalog.NewClient(natsCaller(t, tool))},
	}
}

// natsCaller serves tool as a NATS micro service on an embedded server (one
// connection for the service, another for the caller) and returns its
// Caller.
func natsCaller(t *testing.T, tool runtime.Tool) runtime.Caller {
	t.Helper()
	ns, err := natsbridge.StartEmbedded(0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ns.Shutdown)
	connect := func() *nats.Conn {
		nc, err := nats.Connect(ns.ClientURL())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(nc.Close)
		return nc
	}
	svc, err := natsbridge.NewService(t.Context(), connect(), tool, natsbridge.WithPrefix("shop"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { svc.Shutdown(context.Background()) })
	return natsbridge.NewCaller(connect(), "shop")
}

// mcpTool serves tool over MCP in memory and returns the MCP server as a
// runtime.Tool.
func mcpTool(t *testing.T, tool runtime.Tool) *mcpbridge.Tool {
	t.Helper()
	ctx := context.Background()
	server, err := mcpbridge.NewServer(ctx, tool, nil)
	if err != nil {
		t.Fatal(err)
	}
	st, ct := mcp.NewInMemoryTransports()
	ss, err := server.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcpbridge.NewClient(&mcp.Implementation{Name: "callere2e", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	mt, err := mcpbridge.NewTool(ctx, cs)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { mt.Close() })
	return mt
}

// outcome is what a caller sees: a typed value or the items of a stream, and
// what errors.Is and errors.As tell of the error.
type outcome struct {
	Value      any
	Items      []float64
	Err        string // an *Error's class, code, message and data (as JSON values), or "not a *runtime.Error"
	Violations []runtime.Violation
	Is         []string
	Ended      string // what the service saw when its caller went
}

var sentinels = []struct {
	name string
	err  error
}{
	{"ErrCall", runtime.ErrCall},
	{"ErrNoAccess", runtime.ErrNoAccess},
	{"ErrUnauthorized", runtime.ErrUnauthorized},
	{"ErrResponseNull", runtime.ErrResponseNull},
	{"ErrErrorNull", runtime.ErrErrorNull},
	{"ErrNoStreaming", runtime.ErrNoStreaming},
	{"context.Canceled", context.Canceled},
}

func (o *outcome) setErr(err error) {
	if err == nil {
		return
	}
	var e *runtime.Error
	if errors.As(err, &e) {
		var data any // member order and number forms are not compared: MCP's _meta goes through Go maps
		if len(e.Data) > 0 {
			if json.Unmarshal(e.Data, &data) != nil {
				data = "invalid JSON: " + string(e.Data)
			}
		}
		o.Err = fmt.Sprintf("class %q code %d message %q data %v", e.Class, e.Code, e.Message, data)
		o.Violations = e.Violations()
	} else {
		o.Err = "not a *runtime.Error"
	}
	for _, s := range sentinels {
		if errors.Is(err, s.err) {
			o.Is = append(o.Is, s.name)
		}
	}
}

func call[T any](v T, err error) outcome {
	var o outcome
	if err == nil {
		o.Value = v
	}
	o.setErr(err)
	return o
}

// stream reads a whole stream; an error must end it.
func stream(t *testing.T, seq func(func(float64, error) bool)) outcome {
	var o outcome
	errs := 0
	for v, err := range seq {
		if err != nil {
			o.setErr(err)
			errs++
			continue
		}
		if errs > 0 {
			t.Errorf("an item after an error: %v", v)
		}
		o.Items = append(o.Items, v)
	}
	if errs > 1 {
		t.Errorf("%d errors, want one at most", errs)
	}
	return o
}

func TestTypedClientOverEveryTransport(t *testing.T) {
	s := newShop()
	tool, err := catalog.NewTool(s)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		run  func(t *testing.T, ctx context.Context, c *catalog.Client) outcome
		want outcome
		mcp  *outcome // when MCP differs
	}{{
		name: "an object result",
		run: func(_ *testing.T, ctx context.Context, c *catalog.Client) outcome {
			return call(c.GetItem(ctx, catalog.GetItemArgs{Sku: "ABC-123"}))
		},
		want: outcome{Value: catalog.Item{Sku: "ABC-123", Name: "Kettle", Price: 24.5, Tags: []string{"kitchen", "электро"}}},
	}, {
		name: "an object result without its optional member",
		run: func(_ *testing.T, ctx context.Context, c *catalog.Client) outcome {
			return call(c.GetItem(ctx, catalog.GetItemArgs{Sku: "GHI-789"}))
		},
		want: outcome{Value: catalog.Item{Sku: "GHI-789", Name: "Teapot \"Ming\"", Price: 1e-3}},
	}, {
		name: "a scalar return",
		run: func(_ *testing.T, ctx context.Context, c *catalog.Client) outcome {
			return call(c.CountItems(ctx))
		},
		want: outcome{Value: int64(3)},
	}, {
		name: "a scalar return with arguments",
		run: func(_ *testing.T, ctx context.Context, c *catalog.Client) outcome {
			return call(c.Reserve(ctx, catalog.ReserveArgs{Sku: "DEF-456", Quantity: 10, Delivery: catalog.DeliveryStandard}))
		},
		want: outcome{Value: "R-DEF-456-10"},
	}, {
		name: "a tool error with code and data",
		run: func(_ *testing.T, ctx context.Context, c *catalog.Client) outcome {
			return call(c.Reserve(ctx, catalog.ReserveArgs{Sku: "ABC-123", Quantity: 3, Delivery: catalog.DeliveryStandard}))
		},
		want: outcome{Err: `class "call" code 409 message "only 2 left" data map[available:2]`, Is: []string{"ErrCall"}},
	}, {
		name: "a tool error of an object function",
		run: func(_ *testing.T, ctx context.Context, c *catalog.Client) outcome {
			return call(c.GetItem(ctx, catalog.GetItemArgs{Sku: "XYZ-999"}))
		},
		want: outcome{Err: `class "call" code 404 message "no item XYZ-999" data map[sku:XYZ-999]`, Is: []string{"ErrCall"}},
	}, {
		name: "a plain error of the service",
		run: func(_ *testing.T, ctx context.Context, c *catalog.Client) outcome {
			return call(c.Reserve(ctx, catalog.ReserveArgs{Sku: "BRK-001", Quantity: 1, Delivery: catalog.DeliveryStandard}))
		},
		want: outcome{Err: `class "call" code 500 message "disk on fire" data <nil>`, Is: []string{"ErrCall"}},
	}, {
		name: "an argument violation",
		run: func(_ *testing.T, ctx context.Context, c *catalog.Client) outcome {
			return call(c.Reserve(ctx, catalog.ReserveArgs{Sku: "ABC-123", Quantity: 1, Delivery: "drone"}))
		},
		want: outcome{
			Err: `class "call" code -32602 message "invalid params: /delivery: got \"drone\", want one of \"standard\", \"express\"" ` +
				`data [map[message:got "drone", want one of "standard", "express" path:/delivery]]`,
			Violations: []runtime.Violation{{Path: "/delivery", Message: `got "drone", want one of "standard", "express"`}},
			Is:         []string{"ErrCall"},
		},
	}, {
		name: "a stream with several items",
		run: func(t *testing.T, ctx context.Context, c *catalog.Client) outcome {
			return stream(t, c.WatchPriceSeq(ctx, catalog.WatchPriceArgs{Sku: "ABC-123"}))
		},
		want: outcome{Items: []float64{24.5, 25, 23.75}},
	}, {
		name: "a stream in the Service's form",
		run: func(t *testing.T, ctx context.Context, c *catalog.Client) outcome {
			var o outcome
			o.setErr(c.WatchPrice(ctx, catalog.WatchPriceArgs{Sku: "DEF-456"}, func(p float64) error {
				o.Items = append(o.Items, p)
				return nil
			}))
			return o
		},
		want: outcome{Items: []float64{4, 4.5, 3.25}},
	}, {
		name: "a stream error",
		run: func(t *testing.T, ctx context.Context, c *catalog.Client) outcome {
			return stream(t, c.WatchPriceSeq(ctx, catalog.WatchPriceArgs{Sku: "ERR-001"}))
		},
		want: outcome{Items: []float64{1, 2}, Err: `class "call" code 503 message "the price feed is down" data <nil>`, Is: []string{"ErrCall"}},
	}, {
		name: "breaking out of a stream early",
		run: func(t *testing.T, ctx context.Context, c *catalog.Client) outcome {
			var o outcome
			for v, err := range c.WatchPriceSeq(ctx, catalog.WatchPriceArgs{Sku: "INF-001"}) {
				if err != nil {
					o.setErr(err)
					break
				}
				o.Items = append(o.Items, v)
				if len(o.Items) == 3 {
					break
				}
			}
			if o.Items != nil {
				o.Ended = <-s.ended
			}
			return o
		},
		want: outcome{Items: []float64{0, 1, 2}, Ended: "emit failed (ctx: context canceled)"},
	}, {
		name: "a context cancelled",
		run: func(t *testing.T, ctx context.Context, c *catalog.Client) outcome {
			ctx, cancel := context.WithCancel(ctx)
			defer cancel()
			go func() {
				<-s.started
				cancel()
			}()
			o := call(c.Reserve(ctx, catalog.ReserveArgs{Sku: "SLO-001", Quantity: 1, Delivery: catalog.DeliveryStandard}))
			o.Ended = <-s.ended
			return o
		},
		want: outcome{Err: "not a *runtime.Error", Is: []string{"context.Canceled"}, Ended: "ctx: context canceled"},
	}, {
		name: "a context cancelled before the call",
		run: func(t *testing.T, ctx context.Context, c *catalog.Client) outcome {
			ctx, cancel := context.WithCancel(ctx)
			cancel()
			return call(c.CountItems(ctx))
		},
		want: outcome{Err: "not a *runtime.Error", Is: []string{"context.Canceled"}},
	}}
	trs := transports(t, tool)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, tr := range trs {
				want := tt.want
				if tr.name == "mcp" && tt.mcp != nil {
					want = *tt.mcp
				}
				got := tt.run(t, t.Context(), tr.c)
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("%s (-want +got):\n%s", tr.name, diff)
				}
			}
		})
	}
	// Nothing of a case reached a later one.
	select {
	case v := <-s.ended:
		t.Errorf("left over: %s", v)
	case <-s.started:
		t.Error("left over: a start")
	default:
	}
}

// The typed client over the three transports is safe for concurrent use, and
// its results do not mix.
func TestTypedClientConcurrent(t *testing.T) {
	tool, err := catalog.NewTool(newShop())
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range transports(t, tool) {
		t.Run(tr.name, func(t *testing.T) {
			errs := make(chan error, 40)
			for i := range cap(errs) {
				go func() {
					sku := []catalog.SKU{"ABC-123", "DEF-456", "GHI-789"}[i%3]
					it, err := tr.c.GetItem(t.Context(), catalog.GetItemArgs{Sku: sku})
					if err == nil && it.Sku != sku {
						err = fmt.Errorf("asked for %s, got %s", sku, it.Sku)
					}
					errs <- err
				}()
			}
			var failed []error
			for range cap(errs) {
				if err := <-errs; err != nil {
					failed = append(failed, err)
				}
			}
			if len(failed) > 0 {
				t.Errorf("%d of %d calls failed: %v", len(failed), cap(errs), slices.Compact(failed))
			}
		})
	}
}
