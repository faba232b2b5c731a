package openapie2e

import (
	"encoding/json"
	"errors"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/rest"
	"github.com/opentoolgen/opentoolgen/runtime/toolopt"
	v32 "github.com/opentoolgen/opentoolgen/testdata/golden/openapi-v32"
)

// strictCases are responses of GET /items that break the document, and the
// violation each must be reported with.
var strictCases = []struct {
	name, body string
	want       []runtime.Violation
}{
	{"enum", `{"items":[{"id":"a","status":"active"},{"id":"b","status":"gone"}]}`,
		[]runtime.Violation{{Path: "/items/1/status", Message: `got "gone", want one of "active", "archived"`}}},
	{"bound", `{"items":[{"id":"a","status":"active","price":-1}]}`,
		[]runtime.Violation{{Path: "/items/0/price", Message: "got -1, want ≥ 0"}}},
	{"missing required", `{"items":[{"status":"archived"}]}`,
		[]runtime.Violation{{Path: "/items/0/id", Message: "missing required member"}}},
	{"missing required at the top", `{"next":"x"}`,
		[]runtime.Violation{{Path: "/items", Message: "missing required member"}}},
	{"nested array", `{"items":[{"id":"a","status":"active","tags":["ok","much too long"]}]}`,
		[]runtime.Violation{{Path: "/items/0/tags/1", Message: "got 13 characters, want at most 8"}}},
	{"type and several at once", `{"items":[{"id":7,"status":"active"},{"id":"b","status":"new","price":-2}]}`,
		[]runtime.Violation{
			{Path: "/items/0/id", Message: "got 7, want string"},
			{Path: "/items/1/status", Message: `got "new", want one of "active", "archived"`},
			{Path: "/items/1/price", Message: "got -2, want ≥ 0"},
		}},
}

// TestStrictResponses: with rest.WithStrictResponses, a response that breaks
// the document (an enum value, a bound, a missing required member, a value
// deep in arrays and objects) fails the call with a 502 runtime.Error naming
// each JSON path, whose Data lists the violations; without it, the same
// responses decode as they always did.
func TestStrictResponses(t *testing.T) {
	api := &recordingAPI{status: 200}
	srv := httptest.NewServer(api)
	defer srv.Close()
	strict := must(v32.NewClient(srv.URL, rest.WithStrictResponses()))
	lax := must(v32.NewClient(srv.URL))
	ctx := t.Context()

	for _, c := range strictCases {
		api.answer(200, c.body)
		_, err := strict.ListItems(ctx, v32.ListItemsArgs{})
		var re *runtime.Error
		if !errors.As(err, &re) || re.Code != 502 {
			t.Errorf("%s: strict: got %v, want a 502 runtime.Error", c.name, err)
			continue
		}
		if got := re.Violations(); got != nil {
			t.Errorf("%s: a 502 has no invalid-params violations, got %v", c.name, got)
		}
		var got []runtime.Violation
		if err := json.Unmarshal(re.Data, &got); err != nil || !equalViolations(got, c.want) {
			t.Errorf("%s: Data %s, want %v", c.name, re.Data, c.want)
		}
		if !strings.HasPrefix(re.Message, "GET /items: HTTP 200: the response does not match the document: ") {
			t.Errorf("%s: message %q", c.name, re.Message)
		}
		for _, v := range c.want {
			if !strings.Contains(re.Message, v.String()) {
				t.Errorf("%s: the message %q does not say %q", c.name, re.Message, v.String())
			}
		}

		if c.name == "type and several at once" {
			continue // a number where a string goes does not decode without checks either
		}
		if _, err := lax.ListItems(ctx, v32.ListItemsArgs{}); err != nil {
			t.Errorf("%s: without strict responses: %v", c.name, err)
		}
	}

	// A valid response decodes the same both ways.
	api.answer(200, `{"items":[{"id":"a","status":"active","price":2.5,"tags":["x"]}],"next":"n","extra":{"k":[1]}}`)
	a, errA := strict.ListItems(ctx, v32.ListItemsArgs{})
	b, errB := lax.ListItems(ctx, v32.ListItemsArgs{})
	if errA != nil || errB != nil {
		t.Fatalf("a valid response: %v, %v", errA, errB)
	}
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if string(ja) != string(jb) || string(ja) != `{"items":[{"id":"a","status":"active","secret":"","price":2.5,"tags":["x"]}],"next":"n"}` {
		t.Errorf("strict decoded %s, lax %s", ja, jb)
	}
	// An additional operation's response is checked too.
	api.answer(202, `{"id":"a","status":"purged"}`)
	if _, err := strict.PurgeItem(ctx, v32.PurgeItemArgs{ID: "a"}); err == nil || !strings.Contains(err.Error(), `PURGE /items/{id}: HTTP 202: the response does not match the document: /status: got "purged", want one of`) {
		t.Errorf("PurgeItem: %v", err)
	}
}

// TestStrictResponsesWriteOnly: a required member the document marks
// writeOnly (Item's secret) may be absent from a checked response, and is
// still required of the arguments that send it.
func TestStrictResponsesWriteOnly(t *testing.T) {
	api := &recordingAPI{status: 201, response: `{"id":"a","status":"active"}`}
	rs := httptest.NewServer(api)
	defer rs.Close()
	c := must(v32.NewClient(rs.URL, rest.WithStrictResponses()))
	item, err := c.CreateItem(t.Context(), v32.CreateItemArgs{Item: v32.Item{ID: "a", Status: v32.ItemStatusActive, Secret: "s"}})
	if err != nil || item.ID != "a" {
		t.Errorf("CreateItem: %+v, %v", item, err)
	}
	if got := api.take(); len(got) != 1 || got[0].body != `{"id":"a","status":"active","secret":"s"}` {
		t.Errorf("the API got %+v", got)
	}
	// The other required members are still checked.
	api.answer(201, `{"status":"active"}`)
	if _, err := c.CreateItem(t.Context(), v32.CreateItemArgs{Item: v32.Item{ID: "a", Status: v32.ItemStatusActive, Secret: "s"}}); err == nil || !strings.Contains(err.Error(), "/id: missing required member") || strings.Contains(err.Error(), "secret") {
		t.Errorf("a response without id: %v", err)
	}

	tool, err := v32.NewTool(c)
	if err != nil {
		t.Fatal(err)
	}
	_, err = tool.Call(t.Context(), "createItem", json.RawMessage(`{"id":"a","status":"active"}`))
	var re *runtime.Error
	if !errors.As(err, &re) || re.Code != runtime.CodeInvalidParams || !strings.Contains(re.Message, "/secret: missing required member") {
		t.Errorf("arguments without the writeOnly secret: %v", err)
	}
}

// TestStrictResponsesTool: a Tool made with toolopt.WithStrictResponses has
// its REST client check the responses (through the call's context), and the
// violation reaches the tool's caller as a 502 naming the path; the same
// Tool without the option passes the response on.
func TestStrictResponsesTool(t *testing.T) {
	api := &recordingAPI{status: 200, response: `{"items":[{"id":"a","status":"lost"}]}`}
	rs := httptest.NewServer(api)
	defer rs.Close()
	client := must(v32.NewClient(rs.URL))
	for _, strict := range []bool{true, false} {
		var opts []toolopt.Option
		if strict {
			opts = append(opts, toolopt.WithStrictResponses())
		}
		tool, err := v32.NewTool(client, opts...)
		if err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewServer(runtime.NewHandler(tool))
		oc := runtime.NewClient(srv.URL + "/opentool")
		res, err := oc.Call(t.Context(), runtime.FunctionCall{Name: "queryItems", Arguments: json.RawMessage(`{"text":"x"}`)})
		srv.Close()
		if !strict {
			if err != nil {
				t.Errorf("without WithStrictResponses: %v", err)
			}
			continue
		}
		var ce *runtime.Error
		if !errors.As(err, &ce) || ce.Code != 502 || !strings.Contains(ce.Message, `QUERY /items: HTTP 200: the response does not match the document: /items/0/status: got "lost", want one of "active", "archived"`) {
			t.Errorf("with WithStrictResponses: %v, %v", res, err)
		}
	}
}

func equalViolations(a, b []runtime.Violation) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
