package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRegistrationFlag runs the command with -registration: the YAML is
// written (and checked by -check), and what the platform refuses exits with
// an error naming the flag or the function's place, writing nothing.
func TestRegistrationFlag(t *testing.T) {
	dir := t.TempDir()
	put(t, filepath.Join(dir, "tool.json"), toolDoc)
	opentoolgen(t, dir, "-o", "out", "-registration", "tools.yaml", "-subject", "cg.v1.{project_id}.{channel_id}.cmd.tool.{function}", "-after-execution", "terminate", "tool.json").want(t, 0)
	got, err := os.ReadFile(filepath.Join(dir, "tools.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"---\ntool_name: get_user\ntarget_subject: \"cg.v1.{project_id}.{channel_id}.cmd.tool.get_user\"\nafter_execution: terminate\n",
		"---\ntool_name: ping\n", "options: {}\n", "    user_id:\n      type: string\n"} {
		if !strings.Contains(string(got), want) {
			t.Errorf("tools.yaml lacks %q:\n%s", want, got)
		}
	}
	opentoolgen(t, dir, "-check", "-o", "out", "-registration", "tools.yaml", "-subject", "cg.v1.{project_id}.{channel_id}.cmd.tool.{function}", "-after-execution", "terminate", "tool.json").want(t, 0)
	r := opentoolgen(t, dir, "-check", "-o", "out", "-registration", "tools.yaml", "tool.json")
	r.want(t, 1)
	if !strings.Contains(r.stderr, "tools.yaml") {
		t.Errorf("-check with other flags: %s", r.stderr)
	}

	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"-registration", "x.yaml", "-after-execution", "continue"}, 2, `-after-execution: got "continue", want suspend or terminate`},
		{[]string{"-registration", "x.yaml", "-subject", "cmd.sys.pmo.internal.{function}"}, 2, "-subject: \"cmd.sys.pmo.internal.{function}\": cmd.sys.* subjects are the platform's own"},
		{[]string{"-registration", "x.yaml", "-subject", "tools.{function}"}, 2, "-subject: \"tools.{function}\": want a cmd.tool.* subject"},
		{[]string{"-subject", "cmd.tool.{function}"}, 2, "-subject needs -registration FILE"},
		{[]string{"-after-execution", "suspend"}, 2, "-after-execution needs -registration FILE"},
		{[]string{"-registration", "x.yaml", "-subject", "cmd.tool.one"}, 1, "has no {function}: the 2 functions would share one target_subject"},
	} {
		r := opentoolgen(t, dir, append(append([]string{"-o", "bad"}, c.args...), "tool.json")...)
		r.want(t, c.code)
		if !strings.Contains(r.stderr, c.want) {
			t.Errorf("%v: stderr %q, want %q", c.args, r.stderr, c.want)
		}
	}
	put(t, filepath.Join(dir, "internal.json"), `{"opentool":"1.0.0","info":{"title":"t","version":"1"},"functions":[
  {"name":"fork_join","description":"","parameters":[]}]}`)
	r = opentoolgen(t, dir, "-o", "bad", "-registration", "x.yaml", "internal.json")
	r.want(t, 1)
	if !strings.Contains(r.stderr, `internal.json:2:11: /functions/0/name: function "fork_join": fork_join is an internal tool of the platform`) {
		t.Errorf("internal name: %s", r.stderr)
	}
	for _, p := range []string{"bad", "x.yaml"} {
		if _, err := os.Stat(filepath.Join(dir, p)); err == nil {
			t.Errorf("%s was written after an error", p)
		}
	}
}
