package toolcli_test

// What a released command does besides serving: the version command, the
// warning of a credential the document requires that is not set.

import (
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/opentoolgen/opentoolgen/internal/testtool"
	"github.com/opentoolgen/opentoolgen/toolcli"
)

// credWarning is the warning of an unset credential, for variable NAME.
func credWarning(name string) *regexp.Regexp {
	return regexp.MustCompile(`(?m)^time=\S+ level=WARN msg="a credential the document requires is not set: the functions that need it will fail" variable=` + name + `$`)
}

// TestRequiredCredentialWarns: a required variable not set (or empty) is
// one warning line naming it, whatever the command; a set one, or one not
// required, none; the command starts either way.
func TestRequiredCredentialWarns(t *testing.T) {
	c := mockCommand(newStore())
	c.Env = []toolcli.Env{{Name: "MOCK_CRED_A", Usage: "A", Required: true}, {Name: "MOCK_CRED_B", Usage: "B", Required: true},
		{Name: "MOCK_CRED_C", Usage: "C"}}
	t.Setenv("MOCK_CRED_A", "")
	t.Setenv("MOCK_CRED_B", "set")
	os.Unsetenv("MOCK_CRED_C")
	code, _, errs := testtool.Run(t, c, "mcp") // standard input at its end: it stops at once
	if code != 0 {
		t.Fatalf("exit status %d:\n%s", code, errs)
	}
	if n := len(credWarning("MOCK_CRED_A").FindAllString(errs, -1)); n != 1 {
		t.Errorf("%d warnings of MOCK_CRED_A (empty), want 1:\n%s", n, errs)
	}
	for _, name := range []string{"MOCK_CRED_B", "MOCK_CRED_C"} {
		if strings.Contains(errs, name) {
			t.Errorf("the logs name %s (set, or not required):\n%s", name, errs)
		}
	}
	r := testtool.Start(t, c)
	r.Stop()
	r.Wait(t)
	if !credWarning("MOCK_CRED_A").MatchString(r.Logs.String()) {
		t.Errorf("start does not warn of MOCK_CRED_A:\n%s", r.Logs)
	}
}

// TestVersionCommand: NAME version prints what -v and --version print;
// with an argument it is a usage error.
func TestVersionCommand(t *testing.T) {
	c := mockCommand(newStore())
	_, want, _ := testtool.Run(t, c, "-v")
	for _, args := range [][]string{{"version"}, {"--version"}} {
		if code, out, errs := testtool.Run(t, c, args...); code != 0 || out != want || errs != "" {
			t.Errorf("%q: exit status %d, %q, stderr %q; want 0 and\n%s", args, code, out, errs, want)
		}
	}
	if code, out, errs := testtool.Run(t, c, "version", "now"); code != 2 || out != "" || !strings.Contains(errs, `version takes no arguments, got "now"`) {
		t.Errorf("version now: exit status %d, %q, stderr %q; want 2 and a usage error", code, out, errs)
	}
}

// TestPetstoreCredentialWarning: the petstore command generated from
// OpenAPI, started without the credentials its document requires (api_key
// for every operation but those of their own security, bearerAuth for
// one), warns of each once, and not of petstore_auth (its operation may be
// called without), and still serves.
func TestPetstoreCredentialWarning(t *testing.T) {
	bin := build(t, "openapi-petstore")
	unset := []string{"OPENAPI_PETSTORE_API_KEY=", "OPENAPI_PETSTORE_BEARER_AUTH=", "OPENAPI_PETSTORE_PETSTORE_AUTH="}
	cmd := exec.Command(bin, "mcp") // standard input at its end: it stops at once
	cmd.Env = append(os.Environ(), unset...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("mcp: %v\n%s", err, out)
	}
	checkCredWarnings(t, "mcp", string(out))
	p := startProcess(t, bin, unset, "start", "-t", "0") // it serves
	p.cmd.Process.Signal(os.Interrupt)
	if code := p.wait(t); code != 0 {
		t.Errorf("start: exit status %d:\n%s", code, p.logs)
	}
	checkCredWarnings(t, "start", p.logs.String())
}

func checkCredWarnings(t *testing.T, command, logs string) {
	t.Helper()
	for _, name := range []string{"OPENAPI_PETSTORE_API_KEY", "OPENAPI_PETSTORE_BEARER_AUTH"} {
		if n := len(credWarning(name).FindAllString(logs, -1)); n != 1 {
			t.Errorf("%s: %d warnings of %s, want 1:\n%s", command, n, name, logs)
		}
	}
	if strings.Contains(logs, "OPENAPI_PETSTORE_PETSTORE_AUTH") {
		t.Errorf("%s: a warning of petstore_auth, which its operation does without:\n%s", command, logs)
	}
}
