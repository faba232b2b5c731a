package toolcli_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestLinksOnlyWhatItServes checks with go list that package toolcli, and a
// main generated without -with, link no NATS (the nats and exec commands are
// package toolcli/natscli's, which a main generated with -with nats imports).
func TestLinksOnlyWhatItServes(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	for _, pkg := range []string{".", "../testdata/golden/openapi-petstore/cmd/openapi-petstore"} {
		out, err := exec.Command("go", "list", "-deps", pkg).CombinedOutput()
		if err != nil {
			t.Fatalf("go list -deps %s: %v\n%s", pkg, err, out)
		}
		for _, dep := range strings.Fields(string(out)) {
			if strings.Contains(dep, "nats-io") {
				t.Errorf("%s links %s", pkg, dep)
			}
		}
	}
	out, err := exec.Command("go", "list", "-deps", "../testdata/golden/mocktool/cmd/mocktool").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps mocktool: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "github.com/nats-io/nats-server/v2/server\n") {
		t.Errorf("the mocktool main, generated with -with nats, does not link the NATS server")
	}
}
