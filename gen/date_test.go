package gen

import (
	"strings"
	"testing"
)

// TestDateTypes: a string of format date is a civil.Date in an OpenTool
// package (whatever else its schema constrains) and stays a string in an
// OpenDyn one, whose C function takes it as char*.
func TestDateTypes(t *testing.T) {
	for _, c := range []struct {
		name, doc string
		want      []string
	}{
		{"opentool.json", `{"opentool": "1.0.0", "info": {"title": "t", "version": "1"},
"functions": [{"name": "f", "description": "d", "parameters": [
 {"name": "day", "schema": {"type": "string", "format": "date"}, "required": true},
 {"name": "days", "schema": {"type": "array", "items": {"$ref": "#/schemas/Day"}}},
 {"name": "late", "schema": {"type": "string", "format": "date", "pattern": "^2"}}]}],
"schemas": {"Day": {"type": "string", "format": "date"}}}`,
			[]string{"type Day = civil.Date", "Day  civil.Date ", "Days []Day ", "Late *civil.Date ",
				"decode.Date(d, &x.Day)", "decode.OptionalSlice(d, &x.Days, decode.Date)", "decode.DateText(d, v1, &v)"}},
		{"opendyn.json", `{"opendyn": "1.0.0", "info": {"title": "t", "version": "1", "callingConvention": "cdecl"},
"functions": [{"name": "f", "description": "d", "parameters": [
 {"name": "day", "schema": {"type": "string", "format": "date", "cType": {"type": "char*"}}}]}]}`,
			[]string{"Day string ", `decode.CheckFormat(d, v1, "date")`}},
	} {
		res, err := Generate(c.name, []byte(c.doc), Options{Package: "p"})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		var types string
		for _, f := range res.Files {
			if f.Name == "types.gen.go" {
				types = string(f.Content)
			}
		}
		for _, w := range c.want {
			if !strings.Contains(types, w) {
				t.Errorf("%s: types.gen.go has no %q:\n%s", c.name, w, types)
			}
		}
	}
}
