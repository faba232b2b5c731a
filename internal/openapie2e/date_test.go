package openapie2e

import (
	"context"
	"encoding/json"
	"errors"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/civil"
	"github.com/opentoolgen/opentoolgen/runtime/toolopt"
	params "github.com/opentoolgen/opentoolgen/testdata/golden/openapi-params"
)

// TestDateParameters: the generated REST client sends civil.Date arguments
// as YYYY-MM-DD in the path, the query, a header and a cookie, and decodes
// the dates of the answer; a date the API answers badly is a 502 naming it.
func TestDateParameters(t *testing.T) {
	ctx := context.Background()
	f, srv := newFake(t)
	c := must(params.NewClient(srv.URL))
	day := civil.Date{Year: 2026, Month: time.February, Day: 28}

	f.expect(exchange{method: "GET", path: "/days/2026-02-28", query: "since=2025-12-31&days=2026-03-01,2026-03-02",
		header: map[string]string{"X-Day": "2026-02-28"}, cookie: "until=2026-03-31",
		status: 200, response: `{"day":"2026-02-28","next":["2026-03-01","2026-03-02"],"holiday":null}`})
	cal, err := c.DayParameters(ctx, params.DayParametersArgs{
		Day: day, Since: &civil.Date{Year: 2025, Month: time.December, Day: 31},
		Days: []civil.Date{day.AddDays(1), day.AddDays(2)}, XDay: &day,
		Until: &civil.Date{Year: 2026, Month: time.March, Day: 31},
	})
	if err != nil {
		t.Fatal(err)
	}
	if cal.Day != day || !slices.Equal(cal.Next, []civil.Date{{Year: 2026, Month: 3, Day: 1}, {Year: 2026, Month: 3, Day: 2}}) || cal.Holiday != nil {
		t.Errorf("DayParameters: got %+v", cal)
	}

	// Only the required date: no query, header or cookie.
	f.expect(exchange{method: "GET", path: "/days/2026-02-28", header: map[string]string{"X-Day": ""},
		status: 200, response: `{"day":"2026-02-28","holiday":"2026-04-06"}`})
	if cal, err := c.DayParameters(ctx, params.DayParametersArgs{Day: day}); err != nil || cal.Holiday == nil || cal.Holiday.String() != "2026-04-06" {
		t.Errorf("DayParameters: got %+v, %v", cal, err)
	}

	// A date the API answers wrong: the call fails as a bad gateway quoting
	// it (encoding/json reads the answer: civil.Date's UnmarshalJSON).
	f.expect(exchange{method: "GET", path: "/days/2026-02-28", status: 200, response: `{"day":"2026-02-29"}`})
	_, err = c.DayParameters(ctx, params.DayParametersArgs{Day: day})
	var e *runtime.Error
	if !errors.As(err, &e) || e.Code != 502 || !strings.Contains(err.Error(), `the response does not match the document: date "2026-02-29" is not an RFC 3339 full-date (YYYY-MM-DD): day 29 is not in February 2026, which has 28 days`) {
		t.Errorf("a bad date in the answer: got %v, want a 502 quoting it", err)
	}
	// With strict responses, the generated decoder names its place.
	f.expect(exchange{method: "GET", path: "/days/2026-02-28", status: 200, response: `{"day":"2026-02-28","next":["2026-03-01","2026-3-2"]}`})
	_, err = c.DayParameters(toolopt.ContextWithStrictResponses(ctx), params.DayParametersArgs{Day: day})
	if !errors.As(err, &e) || e.Code != 502 || !strings.Contains(err.Error(), `/next/1: got "2026-3-2", want an RFC 3339 date (YYYY-MM-DD)`) {
		t.Errorf("a bad date in a strict answer: got %v, want a 502 naming /next/1", err)
	}

	// A date that is not valid is not sent.
	if _, err := c.DayParameters(ctx, params.DayParametersArgs{Day: civil.Date{Year: 2026, Month: 2, Day: 29}}); err == nil ||
		!strings.Contains(err.Error(), `path parameter "day": civil.Date: 2026-02-29 is not a valid date`) {
		t.Errorf("an invalid date argument: got %v", err)
	}
}

// TestDateArguments: the Tool adapter over the REST client takes dates as
// JSON strings from an OpenTool caller, sends them, answers the dates of the
// response, and refuses a bad date with -32602 naming the argument before
// any request is made.
func TestDateArguments(t *testing.T) {
	ctx := context.Background()
	f, api := newFake(t)
	tool, err := params.NewTool(must(params.NewClient(api.URL)))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(runtime.NewHandler(tool))
	defer srv.Close()
	oc := runtime.NewClient(srv.URL + runtime.DefaultPrefix)

	f.expect(exchange{method: "GET", path: "/days/2024-02-29", query: "days=2024-03-01", header: map[string]string{"X-Day": "2024-01-01"},
		status: 200, response: `{"day":"2024-02-29","next":["2024-03-01"]}`})
	res, err := oc.CallFunction(ctx, "dayParameters", json.RawMessage(`{"day":"2024-02-29","days":["2024-03-01"],"X-Day":"2024-01-01","since":null}`))
	if err != nil {
		t.Fatal(err)
	}
	if string(res) != `{"day":"2024-02-29","next":["2024-03-01"]}` {
		t.Errorf("result: got %s", res)
	}

	for _, c := range []struct{ args, path, message string }{
		{`{"day":"2024-02-30"}`, "/day", `got "2024-02-30", want an RFC 3339 date (YYYY-MM-DD): day 30 is not in February 2024, which has 29 days`},
		{`{"day":"2024-02-28T00:00:00Z"}`, "/day", `got "2024-02-28T00:00:00Z", want an RFC 3339 date (YYYY-MM-DD): a date has no time of day`},
		{`{"day":"2024-02-28","since":"24-1-1"}`, "/since", `got "24-1-1", want an RFC 3339 date (YYYY-MM-DD): want 4 digits of year, 2 of month and 2 of day, between hyphens`},
		{`{"day":"2024-02-28","days":["2024-01-01","2024-13-01"]}`, "/days/1", `got "2024-13-01", want an RFC 3339 date (YYYY-MM-DD): month 13 is not 01 to 12`},
		{`{"day":"2024-02-28","X-Day":20240228}`, "/X-Day", `got 20240228, want string`},
		{`{}`, "/day", `missing required member`},
	} {
		_, err := oc.CallFunction(ctx, "dayParameters", json.RawMessage(c.args))
		var e *runtime.Error
		if !errors.As(err, &e) || e.Code != runtime.CodeInvalidParams {
			t.Errorf("%s: got %v, want a -32602 error", c.args, err)
			continue
		}
		if vs := e.Violations(); len(vs) != 1 || vs[0].Path != c.path || vs[0].Message != c.message {
			t.Errorf("%s: violations %+v, want [{%s %s}]", c.args, vs, c.path, c.message)
		}
	}
}
