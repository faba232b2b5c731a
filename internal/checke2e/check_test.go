// Package checke2e sends, through every front of a generated package, an
// argument that breaks each JSON Schema keyword the package serves
// (testdata/golden/constraints/constraints.json): OpenTool HTTP on loopback,
// runtime.Local, MCP (mcpbridge over the SDK's in-memory transport) and
// functions.Load. Each must refuse the call with -32602 naming the
// argument's JSON path, before the service runs, and take the valid call.
package checke2e

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/opentoolgen/opentoolgen/mcpbridge"
	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/civil"
	"github.com/opentoolgen/opentoolgen/runtime/document"
	"github.com/opentoolgen/opentoolgen/runtime/functions"
	constraints "github.com/opentoolgen/opentoolgen/testdata/golden/constraints"
)

// service counts the calls that reach it; the dates of a call arrive as
// civil.Date values.
type service struct{ calls atomic.Int64 }

func (s *service) Check(_ context.Context, args constraints.CheckArgs) (string, error) {
	s.calls.Add(1)
	day, since := civil.Date{Year: 2024, Month: time.February, Day: 29}, civil.Date{Year: 2024, Month: time.March, Day: 1}
	days := []civil.Date{{Year: 2024, Month: time.January, Day: 1}, {Year: 2024, Month: time.December, Day: 31}}
	if args.Day == nil || *args.Day != day || args.Since == nil || *args.Since != since || !slices.Equal(args.Days, days) {
		return "", fmt.Errorf("the dates: got day %v, since %v, days %v; want %v, %v, %v", args.Day, args.Since, args.Days, day, since, days)
	}
	return "ok", nil
}

// front calls the function "check" with raw JSON arguments.
type front struct {
	name string
	call func(ctx context.Context, args json.RawMessage) (json.RawMessage, error)
}

func fronts(t *testing.T, tool runtime.Tool) []front {
	t.Helper()
	srv := httptest.NewServer(runtime.NewHandler(tool))
	t.Cleanup(srv.Close)
	callerFront := func(name string, c runtime.Caller) front {
		return front{name, func(ctx context.Context, args json.RawMessage) (json.RawMessage, error) {
			return c.CallFunction(ctx, "check", args)
		}}
	}
	fns, err := functions.Load(context.Background(), tool)
	if err != nil {
		t.Fatal(err)
	}
	var fn *functions.Tool
	for _, f := range fns {
		if f.Name() == "check" {
			fn = f
		}
	}
	if fn == nil {
		t.Fatal("Functions: no function check")
	}
	return []front{
		callerFront("http", runtime.NewClient(srv.URL+runtime.DefaultPrefix)),
		callerFront("local", runtime.Local(tool)),
		callerFront("mcp", runtime.Local(mcpTool(t, tool))),
		{"functions", fn.Call},
	}
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
	cs, err := mcpbridge.NewClient(&mcp.Implementation{Name: "checke2e", Version: "1"}, nil).Connect(ctx, ct, nil)
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

// violations are the keyword cases: one member of the arguments (added to
// {"text": "abc"}) and the violation it must give.
var violations = []struct {
	keyword, member, value string
	path, message          string
}{
	{"minLength", "text", `"a"`, "/text", "got 1 characters, want at least 2"},
	{"maxLength", "text", `"abcdef"`, "/text", "got 6 characters, want at most 5"},
	{"pattern", "code", `"abc"`, "/code", `got "abc", want a string matching "^[A-Z]{3}$"`},
	{"format email", "email", `"Ann <ann@example.com>"`, "/email", `got "Ann <ann@example.com>", want an email address`},
	{"format date-time", "when", `"2024-05-01 10:00"`, "/when", `got "2024-05-01 10:00", want an RFC 3339 date-time`},
	{"format date", "day", `"2024-02-30"`, "/day", `got "2024-02-30", want an RFC 3339 date (YYYY-MM-DD): day 30 is not in February 2024, which has 29 days`},
	{"format date (a time of day)", "day", `"2024-02-28T10:00:00Z"`, "/day", `got "2024-02-28T10:00:00Z", want an RFC 3339 date (YYYY-MM-DD): a date has no time of day`},
	{"format date (digits)", "day", `"24-2-8"`, "/day", `got "24-2-8", want an RFC 3339 date (YYYY-MM-DD): want 4 digits of year, 2 of month and 2 of day, between hyphens`},
	{"format date (type)", "day", `20240228`, "/day", `got 20240228, want string`},
	{"pattern of a date", "since", `"1999-01-01"`, "/since", `got "1999-01-01", want a string matching "^20"`},
	{"format date with a pattern", "since", `"2024-13-01"`, "/since", `got "2024-13-01", want an RFC 3339 date (YYYY-MM-DD): month 13 is not 01 to 12`},
	{"format date in an array", "days", `["2024-01-01","2024-1-2"]`, "/days/1", `got "2024-1-2", want an RFC 3339 date (YYYY-MM-DD): want 4 digits of year, 2 of month and 2 of day, between hyphens`},
	{"uniqueItems (dates)", "days", `["2024-01-01","2024-01-02","2024-01-01"]`, "/days", "got element 2 equal to element 0, want unique elements"},
	{"format time", "at", `"25:00:00Z"`, "/at", `got "25:00:00Z", want an RFC 3339 time (hh:mm:ss with a time zone)`},
	{"format uri", "site", `"example.com/x"`, "/site", `got "example.com/x", want an absolute URI`},
	{"format uuid", "id", `"1234"`, "/id", `got "1234", want a UUID`},
	{"format ipv4", "ip4", `"10.0.0.256"`, "/ip4", `got "10.0.0.256", want an IPv4 address`},
	{"format ipv6", "ip6", `"10.0.0.1"`, "/ip6", `got "10.0.0.1", want an IPv6 address`},
	{"format hostname", "host", `"-bad-.example"`, "/host", `got "-bad-.example", want a host name`},
	{"minimum", "count", `0`, "/count", "got 0, want ≥ 1"},
	{"maximum", "count", `11`, "/count", "got 11, want ≤ 10"},
	{"exclusiveMinimum", "ratio", `0`, "/ratio", "got 0, want > 0"},
	{"exclusiveMaximum", "ratio", `1`, "/ratio", "got 1, want < 1"},
	{"exclusiveMinimum (OpenAPI 3.0)", "above", `0`, "/above", "got 0, want > 0"},
	{"multipleOf (integer)", "step", `12`, "/step", "got 12, want a multiple of 5"},
	{"multipleOf (number)", "half", `0.7`, "/half", "got 0.7, want a multiple of 0.5"},
	{"minItems", "tags", `[]`, "/tags", "got 0 elements, want at least 1"},
	{"maxItems", "tags", `["a","b","c","d"]`, "/tags", "got 4 elements, want at most 3"},
	{"uniqueItems", "tags", `["a","b","a"]`, "/tags", "got element 2 equal to element 0, want unique elements"},
	{"uniqueItems (objects)", "points", `[{"x":1,"y":2},{"y":2,"x":1.0}]`, "/points", "got element 1 equal to element 0, want unique elements"},
	{"minProperties (map)", "attrs", `{}`, "/attrs", "got 0 members, want at least 1"},
	{"maxProperties (map)", "attrs", `{"a":"1","b":"2","c":"3"}`, "/attrs", "got 3 members, want at most 2"},
	{"minProperties (struct)", "opts", `{}`, "/opts", "got 0 members, want at least 1"},
	{"maxProperties (struct)", "opts", `{"a":true,"b":false}`, "/opts", "got 2 members, want at most 1"},
	{"const (string)", "mode", `"slow"`, "/mode", `got "slow", want "fast"`},
	{"const (integer)", "version", `3`, "/version", "got 3, want 2"},
	{"const (boolean)", "flag", `false`, "/flag", "got false, want true"},
	{"maximum of an enum", "level", `3`, "/level", "got 3, want ≤ 2"},
}

// valid is a call that keeps every constraint.
const valid = `{"text":"abc","code":"ABC","email":"ann@example.com","when":"2024-05-01T10:00:00.5+02:00",
"day":"2024-02-29","since":"2024-03-01","days":["2024-01-01","2024-12-31"],"at":"10:00:00Z","site":"https://example.com/x?y=1","id":"0b5e2c1a-3d4f-4e6a-8b7c-9d0e1f2a3b4c",
"ip4":"10.0.0.255","ip6":"2001:db8::1","host":"api.example.com","count":10,"ratio":0.5,"above":1e-9,"step":-15,
"half":2.5,"tags":["a","b","c"],"points":[{"x":1,"y":2},{"x":2,"y":1}],"attrs":{"a":"1","b":"2"},"opts":{"b":true},
"mode":"fast","version":2,"flag":true,"level":2}`

func TestEveryKeywordThroughEveryFront(t *testing.T) {
	svc := &service{}
	tool, err := constraints.NewTool(svc)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, f := range fronts(t, tool) {
		t.Run(f.name, func(t *testing.T) {
			before := svc.calls.Load()
			res, err := f.call(ctx, json.RawMessage(valid))
			if err != nil {
				t.Fatalf("valid call: %v", err)
			}
			if !strings.Contains(string(res), `"ok"`) {
				t.Errorf("valid call: result %s", res)
			}
			for _, v := range violations {
				args := `{"text":"abc",` + `"` + v.member + `":` + v.value + `}`
				if v.member == "text" {
					args = `{"text":` + v.value + `}`
				}
				_, err := f.call(ctx, json.RawMessage(args))
				var e *runtime.Error
				if !errors.As(err, &e) {
					t.Errorf("%s: %s: got %v, want a *runtime.Error", v.keyword, args, err)
					continue
				}
				if e.Code != runtime.CodeInvalidParams {
					t.Errorf("%s: code %d, want %d (%v)", v.keyword, e.Code, runtime.CodeInvalidParams, e)
				}
				vs := e.Violations()
				if len(vs) != 1 || vs[0].Path != v.path || vs[0].Message != v.message {
					t.Errorf("%s: %s: violations %+v, want [{%s %s}]", v.keyword, args, vs, v.path, v.message)
				}
			}
			if got := svc.calls.Load() - before; got != 1 {
				t.Errorf("the service ran %d times, want once (the valid call)", got)
			}
		})
	}
}

// TestServedKeywords: what the package serves (GET /load's document over
// OpenTool HTTP, the document of its MCP listing) carries the keywords its
// decoders check; the listing's const is a one-value enum.
func TestServedKeywords(t *testing.T) {
	tool, err := constraints.NewTool(&service{})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(runtime.NewHandler(tool))
	t.Cleanup(srv.Close)
	ctx := context.Background()
	type loader interface {
		Load(context.Context) (*document.OpenTool, error)
	}
	for name, l := range map[string]loader{"http": runtime.NewClient(srv.URL + runtime.DefaultPrefix), "mcp": mcpTool(t, tool)} {
		doc, err := l.Load(ctx)
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(doc)
		if err != nil {
			t.Fatal(err)
		}
		constant := `"const":"fast"`
		if name == "mcp" {
			constant = `"enum":["fast"]`
		}
		for _, kw := range []string{`"minLength":2`, `"maxLength":5`, `"format":"email"`, `"exclusiveMinimum":0`,
			`"exclusiveMaximum":1`, `"multipleOf":5`, `"minItems":1`, `"maxItems":3`, `"uniqueItems":true`,
			`"minProperties":1`, `"maxProperties":2`, `"pattern":"^[A-Z]{3}$"`, constant} {
			if !strings.Contains(string(b), kw) {
				t.Errorf("%s document: no %s in %s", name, kw, b)
			}
		}
	}
}
