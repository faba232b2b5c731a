package gen

import (
	"errors"
	"os"
	"strings"
	"testing"
)

// TestOverlayDiagnostics: the warnings of a patched document are at the
// document's lines where what they are about came from the document, and
// say which overlay line the rest came from; the overlay's own warnings come
// first. The patched document takes the fast path.
func TestOverlayDiagnostics(t *testing.T) {
	doc := []byte(`openapi: 3.0.3
info: {title: T, version: "1"}
paths:
  /a:
    get:
      operationId: getA
      parameters:
        - name: q
          in: query
          schema: {type: string, pattern: "(?<=x)a"}
      responses:
        "200": {description: ok}
`)
	ov := []byte(`overlay: 1.0.0
info: {title: O, version: "1"}
actions:
  - target: $.paths['/a'].get.parameters[0]
    update:
      description: the query
  - target: $.paths['/a'].get
    update:
      parameters:
        - name: r
          in: query
          schema:
            type: string
            pattern: "(?<=y)b"
  - target: $.paths['/b']
    remove: true
`)
	slow := ""
	res, err := Generate("api.yaml", doc, Options{Package: "api", Overlays: []Overlay{{Name: "fix.yaml", Data: ov}},
		SlowLoad: func(_, why string) { slow = why }})
	if err != nil {
		t.Fatal(err)
	}
	if slow != "" {
		t.Errorf("the patched document was loaded the slower way: %s", slow)
	}
	var got []string
	for _, w := range res.Warnings {
		got = append(got, w.String())
	}
	want := []string{
		`fix.yaml:15:13: warning: /actions/2/target: target "$.paths['/b']" selects nothing in api.yaml: the action does nothing`,
		`api.yaml:10:43: warning: /paths/~1a/get/parameters/0/schema/pattern: pattern "(?<=x)a" is not checked: Go's regexp package does not accept it (invalid named capture: ` + "`(?<=x)a`" + `)`,
		`api.yaml: warning: /paths/~1a/get/parameters/1/schema/pattern: pattern "(?<=y)b" is not checked: Go's regexp package does not accept it (invalid named capture: ` + "`(?<=y)b`" + `) (from overlay fix.yaml:14:22)`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("warnings:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if !strings.Contains(string(res.Files[0].Content), "// Source: api.yaml with overlay fix.yaml\n") {
		t.Errorf("the header does not name the overlay:\n%.200s", res.Files[0].Content)
	}
}

// TestOverlayOnlyOpenAPI: an overlay given with another kind of document is
// refused, naming the kind.
func TestOverlayOnlyOpenAPI(t *testing.T) {
	data, err := os.ReadFile("../testdata/golden/weather/weather.json")
	if err != nil {
		t.Fatal(err)
	}
	ov := []byte("overlay: 1.0.0\ninfo: {title: O, version: \"1\"}\nactions:\n  - target: $.info\n    update: {x-a: 1}\n")
	_, err = Generate("weather.json", data, Options{Package: "weather", Overlays: []Overlay{{Name: "o.yaml", Data: ov}}})
	var e *Error
	if !errors.As(err, &e) || e.Error() != "weather.json:1:1: -overlay: overlays apply to OpenAPI documents; this is an OpenTool document" {
		t.Errorf("got %v", err)
	}
}
