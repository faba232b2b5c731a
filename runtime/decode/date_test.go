package decode_test

import (
	"strings"
	"testing"

	"github.com/opentoolgen/opentoolgen/runtime/civil"
	"github.com/opentoolgen/opentoolgen/runtime/decode"
)

// TestDecodeDate checks the generated decoders' helper: a violation at the
// member's path that quotes the value.
func TestDecodeDate(t *testing.T) {
	type args struct{ Day civil.Date }
	dec := func(d *decode.Decoder, x *args) {
		if d.Object() {
			for d.Next() {
				if string(d.Key()) == "day" {
					decode.Date(d, &x.Day)
				} else {
					d.Skip()
				}
			}
		}
	}
	var x args
	if err := decode.Unmarshal([]byte(`{"day":"2026-01-31"}`), &x, dec); err != nil || x.Day != (civil.Date{Year: 2026, Month: 1, Day: 31}) {
		t.Fatalf("got %v, %v", x.Day, err)
	}
	for in, want := range map[string]string{
		`{"day":"2026-02-30"}`:           `/day: got "2026-02-30", want an RFC 3339 date (YYYY-MM-DD): day 30 is not in February 2026, which has 28 days`,
		`{"day":"2026-01-31T00:00:00Z"}`: `/day: got "2026-01-31T00:00:00Z", want an RFC 3339 date (YYYY-MM-DD): a date has no time of day`,
		`{"day":20260131}`:               `/day: got 20260131, want string`,
	} {
		x = args{}
		err := decode.Unmarshal([]byte(in), &x, dec)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v, want %q", in, err, want)
		}
	}
}
