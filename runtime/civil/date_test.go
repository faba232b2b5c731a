package civil_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/opentoolgen/opentoolgen/runtime/civil"
)

// TestDateJSON round-trips dates through encoding/json and rejects what is
// not an RFC 3339 full-date with an error that quotes the value.
func TestDateJSON(t *testing.T) {
	type doc struct {
		Day  civil.Date            `json:"day"`
		Opt  *civil.Date           `json:"opt,omitempty"`
		Days []civil.Date          `json:"days"`
		ByID map[string]civil.Date `json:"byID,omitempty"`
	}
	in := doc{
		Day:  civil.Date{Year: 2026, Month: time.May, Day: 1},
		Opt:  &civil.Date{Year: 2024, Month: time.February, Day: 29},
		Days: []civil.Date{{Year: 0, Month: time.January, Day: 1}, {Year: 9999, Month: time.December, Day: 31}},
		ByID: map[string]civil.Date{"a": {Year: 1999, Month: time.October, Day: 9}},
	}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"day":"2026-05-01","opt":"2024-02-29","days":["0000-01-01","9999-12-31"],"byID":{"a":"1999-10-09"}}`
	if string(b) != want {
		t.Fatalf("Marshal: got %s, want %s", b, want)
	}
	var out doc
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	if out.Day != in.Day || *out.Opt != *in.Opt || len(out.Days) != 2 || out.Days[1] != in.Days[1] || out.ByID["a"] != in.ByID["a"] {
		t.Errorf("round trip: got %+v, want %+v", out, in)
	}

	// null: a pointer becomes nil; a value is left as it is.
	out = doc{Day: in.Day, Opt: in.Opt}
	if err := json.Unmarshal([]byte(`{"day":null,"opt":null}`), &out); err != nil {
		t.Fatal(err)
	}
	if out.Day != in.Day || out.Opt != nil {
		t.Errorf("null: got day %v, opt %v; want day %v, opt nil", out.Day, out.Opt, in.Day)
	}

	for _, c := range []struct{ in, why string }{
		{`"2026-13-01"`, `date "2026-13-01" is not an RFC 3339 full-date (YYYY-MM-DD): month 13 is not 01 to 12`},
		{`"2026-00-10"`, `month 00 is not 01 to 12`},
		{`"2026-02-30"`, `date "2026-02-30" is not an RFC 3339 full-date (YYYY-MM-DD): day 30 is not in February 2026, which has 28 days`},
		{`"2100-02-29"`, `day 29 is not in February 2100, which has 28 days`},
		{`"2026-04-00"`, `day 00 is not in April 2026, which has 30 days`},
		{`"26-1-1"`, `date "26-1-1" is not an RFC 3339 full-date (YYYY-MM-DD): want 4 digits of year, 2 of month and 2 of day, between hyphens`},
		{`"2026-01-02T10:00:00Z"`, `date "2026-01-02T10:00:00Z" is not an RFC 3339 full-date (YYYY-MM-DD): a date has no time of day`},
		{`"2026-01-02 10:00"`, `a date has no time of day`},
		{`"2026-01-02x"`, `want 4 digits of year`},
		{`"+026-01-02"`, `want 4 digits of year`},
		{`"2026-1-02"`, `want 4 digits of year`},
		{`""`, `date "" is not`},
		{`20260102`, `civil.Date: got "20260102", want a JSON string holding a date (YYYY-MM-DD)`},
		{`{}`, `want a JSON string`},
		{`"` + strings.Repeat("é", 50) + `"`, `date "` + strings.Repeat("é", 40) + `…" is not`},
	} {
		var d civil.Date
		err := json.Unmarshal([]byte(c.in), &d)
		if err == nil || !strings.Contains(err.Error(), c.why) {
			t.Errorf("Unmarshal(%s): got error %v, want one containing %q", c.in, err, c.why)
		}
		if d != (civil.Date{}) {
			t.Errorf("Unmarshal(%s): the date became %v", c.in, d)
		}
	}
	var de *civil.DateError
	if _, err := civil.ParseDate("2026-02-30"); !errors.As(err, &de) || de.Value != "2026-02-30" {
		t.Errorf("ParseDate: got %v, want a *DateError of the value", err)
	}

	// What IsValid rejects is not written.
	for _, d := range []civil.Date{{}, {Year: 2026, Month: 2, Day: 29}, {Year: 10000, Month: 1, Day: 1}, {Year: -1, Month: 1, Day: 1}, {Year: 2026, Month: 13, Day: 1}} {
		if b, err := json.Marshal(d); err == nil {
			t.Errorf("Marshal(%#v): got %s, want an error", d, b)
		} else if !strings.Contains(err.Error(), "civil.Date: "+d.String()+" is not a valid date") {
			t.Errorf("Marshal(%#v): got error %v", d, err)
		}
		if _, err := d.MarshalText(); err == nil {
			t.Errorf("MarshalText(%#v): no error", d)
		}
	}
}

func TestDateText(t *testing.T) {
	d, err := civil.ParseDate("2026-03-09")
	if err != nil {
		t.Fatal(err)
	}
	if d != (civil.Date{Year: 2026, Month: time.March, Day: 9}) || d.String() != "2026-03-09" {
		t.Errorf("ParseDate: got %#v (%s)", d, d)
	}
	b, err := d.MarshalText()
	if err != nil || string(b) != "2026-03-09" {
		t.Errorf("MarshalText: %q, %v", b, err)
	}
	var u civil.Date
	if err := u.UnmarshalText([]byte("1970-01-01")); err != nil || u != (civil.Date{Year: 1970, Month: time.January, Day: 1}) {
		t.Errorf("UnmarshalText: %v, %v", u, err)
	}
	if err := u.UnmarshalText([]byte("1970-01-32")); err == nil {
		t.Error("UnmarshalText(1970-01-32): no error")
	}
	if s := (civil.Date{}).String(); s != "0000-00-00" {
		t.Errorf("zero String: %q", s)
	}
	if !(civil.Date{}).IsZero() || d.IsZero() || (civil.Date{}).IsValid() || !d.IsValid() {
		t.Error("IsZero/IsValid")
	}
}

func TestDateCalendar(t *testing.T) {
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		paris = time.FixedZone("CET", 3600)
	}
	// 23:30 UTC on March 31st is April 1st in Paris: the day is t's location's.
	at := time.Date(2026, 3, 31, 23, 30, 0, 0, time.UTC)
	if got := civil.DateOf(at); got != (civil.Date{Year: 2026, Month: time.March, Day: 31}) {
		t.Errorf("DateOf(UTC): %v", got)
	}
	if got := civil.DateOf(at.In(paris)); got != (civil.Date{Year: 2026, Month: time.April, Day: 1}) {
		t.Errorf("DateOf(Paris): %v", got)
	}
	d := civil.Date{Year: 2026, Month: time.April, Day: 1}
	if got := d.In(paris); !got.Equal(time.Date(2026, 4, 1, 0, 0, 0, 0, paris)) || got.Location() != paris {
		t.Errorf("In: %v", got)
	}
	if got := d.AddDays(-1); got != (civil.Date{Year: 2026, Month: time.March, Day: 31}) {
		t.Errorf("AddDays(-1): %v", got)
	}
	if got := d.AddDays(365); got != (civil.Date{Year: 2027, Month: time.April, Day: 1}) {
		t.Errorf("AddDays(365): %v", got)
	}
	first, last := civil.Date{Year: 0, Month: 1, Day: 1}, civil.Date{Year: 9999, Month: 12, Day: 31}
	if n := last.DaysSince(first); n != 3652424 {
		t.Errorf("DaysSince over the whole range: %d, want 3652424", n)
	}
	if n := first.DaysSince(last); n != -3652424 {
		t.Errorf("DaysSince backwards: %d", n)
	}
	if !first.Before(last) || first.After(last) || !last.After(first) || first.Compare(first) != 0 || last.Compare(first) != 1 {
		t.Error("Before/After/Compare")
	}
	a, b := civil.Date{Year: 2026, Month: 2, Day: 28}, civil.Date{Year: 2026, Month: 3, Day: 1}
	if a.Compare(b) != -1 || b.Compare(a) != 1 || a.AddDays(1) != b {
		t.Error("month boundary")
	}
}
