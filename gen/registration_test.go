package gen

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	yaml "github.com/oasdiff/yaml3"

	"github.com/opentoolgen/opentoolgen/runtime/declare"
	"github.com/opentoolgen/opentoolgen/runtime/document"
)

// regDoc has strings a YAML writer must quote (YAML 1.1 booleans, numbers,
// ": ", "#", quotes, newlines, a C1 control, leading spaces, {braces}) in
// names, descriptions and enum values.
const regDoc = `{"opentool":"1.0.0","info":{"title":"Reg: \"tool\"","version":"1"},"functions":[
 {"name":"search","description":"Search: the web\n# not a comment\t\"quoted\" \\ back  ","parameters":[
  {"name":"on","description":"yes","schema":{"type":"string","enum":["no","1.5","-x","~","null","a: b","{x}","ü","\u0085"," lead"]},"required":true},
  {"name":"1x","schema":{"type":"array","items":{"type":"object","properties":{"k":{"type":"integer"},"deep":{"type":"array","items":{"type":"array","items":{"type":"number"}}}}}},"required":false},
  {"name":"empty","schema":{"type":"object","properties":{}},"required":false}]},
 {"name":"ping","description":"","parameters":[]}]}`

// TestRegistration reads the YAML back (the documents, each with exactly the
// management API's six fields) and compares the parameters with the
// functions' declarations.
func TestRegistration(t *testing.T) {
	reg := &Registration{Subject: "cg.v1.{project_id}.{channel_id}.cmd.tool.{function}", AfterExecution: "terminate"}
	res, err := Generate("reg.json", []byte(regDoc), Options{Package: "reg", Registration: reg})
	if err != nil {
		t.Fatal(err)
	}
	again, _ := Generate("reg.json", []byte(regDoc), Options{Package: "reg", Registration: reg})
	if !bytes.Equal(res.Registration, again.Registration) {
		t.Error("two runs differ")
	}
	var doc document.OpenTool
	json.Unmarshal([]byte(regDoc), &doc)
	decls := declare.Plain(&doc)
	dec := yaml.NewDecoder(bytes.NewReader(res.Registration))
	for i := 0; ; i++ {
		var got map[string]any
		err := dec.Decode(&got)
		if errors.Is(err, io.EOF) {
			if i != len(decls) {
				t.Errorf("%d documents, want %d", i, len(decls))
			}
			break
		}
		if err != nil {
			t.Fatalf("document %d: %v\n%s", i, err, res.Registration)
		}
		d := decls[i]
		var params any
		json.Unmarshal(d.Parameters, &params)
		want := map[string]any{"tool_name": d.Name, "target_subject": "cg.v1.{project_id}.{channel_id}.cmd.tool." + d.Name,
			"after_execution": "terminate", "description": d.Description, "parameters": params, "options": map[string]any{}}
		// YAML reads integers as int, JSON as float64.
		if diff := cmp.Diff(normalize(want), normalize(got)); diff != "" {
			t.Errorf("document %d (-want +got):\n%s\n%s", i, diff, res.Registration)
		}
	}
}

// normalize makes numbers float64 and maps map[string]any.
func normalize(v any) any {
	switch v := v.(type) {
	case map[string]any:
		m := map[string]any{}
		for k, x := range v {
			m[k] = normalize(x)
		}
		return m
	case []any:
		for i := range v {
			v[i] = normalize(v[i])
		}
		return v
	case int:
		return float64(v)
	}
	return v
}

// TestRegistrationRefused: what the platform refuses is an error naming the
// place — the option, or the function in the document.
func TestRegistrationRefused(t *testing.T) {
	two := `{"opentool":"1.0.0","info":{"title":"t","version":"1"},"functions":[
 {"name":"a","description":"","parameters":[]},
 {"name":"b","description":"","parameters":[]}]}`
	for _, c := range []struct {
		reg  Registration
		want string
	}{
		{Registration{AfterExecution: "continue"}, `after_execution: got "continue", want suspend or terminate`},
		{Registration{AfterExecution: "Suspend"}, `after_execution: got "Suspend"`},
		{Registration{Subject: "cmd.sys.pmo.internal.{function}"}, `subject: "cmd.sys.pmo.internal.{function}": cmd.sys.* subjects are the platform's own`},
		{Registration{Subject: "cg.v1.{project_id}.{channel_id}.cmd.sys.{function}"}, "cmd.sys.* subjects are the platform's own"},
		{Registration{Subject: "evt.tool.{function}"}, "want a cmd.tool.* subject"},
		{Registration{Subject: "cmd.tool"}, "want a cmd.tool.* subject"},
		{Registration{Subject: "cmd.tool.>"}, "no wildcards"},
		{Registration{Subject: "cmd.tool.x{function}"}, "a placeholder is a whole token"},
		{Registration{Subject: "cmd.tool..x"}, "token 3 is empty"},
		{Registration{Subject: "cmd.tool.search"}, `"cmd.tool.search" has no {function}: the 2 functions would share one target_subject`},
	} {
		_, err := Generate("two.json", []byte(two), Options{Package: "two", Registration: &c.reg})
		var re *RegistrationError
		if !errors.As(err, &re) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: got %v, want a RegistrationError saying %q", c.reg, err, c.want)
		}
	}
	// One function may have a subject of its own.
	one := `{"opentool":"1.0.0","info":{"title":"t","version":"1"},"functions":[{"name":"a","description":"","parameters":[]}]}`
	res, err := Generate("one.json", []byte(one), Options{Package: "one", Registration: &Registration{Subject: "cmd.tool.search.run"}})
	if err != nil || !bytes.Contains(res.Registration, []byte("target_subject: cmd.tool.search.run\n")) || !bytes.Contains(res.Registration, []byte("after_execution: suspend\n")) {
		t.Errorf("one function, fixed subject: %v\n%s", err, res.Registration)
	}
	for i, name := range InternalToolNames {
		doc := fmt.Sprintf(`{"opentool":"1.0.0","info":{"title":"t","version":"1"},"functions":[
 {"name":"ok","description":"","parameters":[]},
 {"name":%q,"description":"","parameters":[]}]}`, name)
		_, err := Generate("internal.json", []byte(doc), Options{Package: "p", Registration: &Registration{}})
		want := fmt.Sprintf(`internal.json:3:10: /functions/1/name: function %q: %s is an internal tool of the platform`, name, name)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%d %s: got %v, want %q", i, name, err, want)
		}
		// Without -registration the name is fine.
		if _, err := Generate("internal.json", []byte(doc), Options{Package: "p"}); err != nil {
			t.Errorf("%s without registration: %v", name, err)
		}
	}
	// An OpenAPI operation: its place is the operation.
	api := `openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /experts:
    get:
      operationId: ask_expert
      responses:
        "200": {description: ok}
`
	_, err = Generate("api.yaml", []byte(api), Options{Package: "api", Registration: &Registration{}})
	if err == nil || !strings.Contains(err.Error(), `api.yaml:6:20: /paths/~1experts/get/operationId: function "ask_expert"`) {
		t.Errorf("OpenAPI: %v", err)
	}
}

func TestYAMLScalar(t *testing.T) {
	for _, s := range []string{"plain", "cmd.tool.x", "yes", "No", "ON", "null", "~", "", "1", "-1", ".5", "a: b", "#x", "x #y",
		"'q'", `"d"`, `\`, "line\nline", "tab\t", "\u0085", "\u2028", "\ufeff", "ü", " lead", "trail ", "{a}", "[a]", "&a", "*a", "!t", "|", ">", "%", "@", "`", "\x7f", "\xff"} {
		out := yamlScalar(s)
		var m map[string]string
		err := yaml.Unmarshal([]byte("k: "+out), &m)
		got := m["k"]
		if err != nil {
			t.Errorf("%q → %s: %v", s, out, err)
			continue
		}
		want := strings.ToValidUTF8(s, "\ufffd")
		if got != want {
			t.Errorf("%q → %s reads back as %q", s, out, got)
		}
	}
}
