package main

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestUseInModule follows README's "Use it in your module" as written: in a
// throw-away module it runs the block's go commands (the local clone being
// this working tree), puts the README's //go:generate line next to a document,
// and runs go generate, go build and go vet. The module cache must hold the
// dependencies (go mod download); nothing is fetched (GOPROXY=off), and the
// module's go.sum is seeded from this one's so that no checksum database is
// asked.
func TestUseInModule(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: skipping the throw-away module")
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command:", err)
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	shell, generate := useInModule(t, readme)

	mod := t.TempDir()
	env := append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off")
	run := func(args ...string) {
		t.Helper()
		cmd := exec.Command(goCmd, args...)
		cmd.Dir = mod
		cmd.Env = env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	run("mod", "init", "example.com/agent")
	copyFile(t, filepath.Join(root, "go.sum"), filepath.Join(mod, "go.sum"))
	copyFile(t, filepath.Join(root, "examples", "weather", "weather.json"), filepath.Join(mod, "weather.json"))
	ran := 0
	for _, line := range shell {
		if strings.HasPrefix(line, "git clone ") {
			continue // the clone is this working tree
		}
		fields := strings.Fields(strings.ReplaceAll(line, "../opentoolgen", root))
		if fields[0] != "go" {
			t.Fatalf("README's block has a command this test does not know: %q", line)
		}
		run(fields[1:]...)
		ran++
	}
	if ran < 2 {
		t.Fatalf("README's block ran %d go commands, want the go mod edit and the go get -tool", ran)
	}
	doc := "// Package agent uses opentoolgen as a tool of its module.\npackage agent\n\n" + generate + "\n"
	if err := os.WriteFile(filepath.Join(mod, "doc.go"), []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	run("generate", "./...")
	for _, f := range generatedFiles {
		if _, err := os.Stat(filepath.Join(mod, "weathertool", f)); err != nil {
			t.Errorf("go generate did not write weathertool/%s: %v", f, err)
		}
	}
	run("build", "./...")
	run("vet", "./...")
}

// useInModule returns the commands of the shell block that follows README's
// use-in-module marker, and the //go:generate line of the go block after it.
func useInModule(t *testing.T, readme []byte) (shell []string, generate string) {
	t.Helper()
	_, rest, ok := bytes.Cut(readme, []byte("<!-- use-in-module"))
	if !ok {
		t.Fatal("README.md has no use-in-module marker")
	}
	var block string // "" outside a fenced block
	sc := bufio.NewScanner(bytes.NewReader(rest))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case strings.HasPrefix(line, "```") && block == "":
			block = strings.TrimPrefix(line, "```")
		case line == "```":
			if block == "go" {
				return shell, generate
			}
			block = ""
		case block == "sh" && line != "" && !strings.HasPrefix(line, "#"):
			shell = append(shell, line)
		case block == "go" && strings.HasPrefix(line, "//go:generate go tool opentoolgen "):
			generate = line
		}
	}
	t.Fatalf("README's use-in-module section lacks a sh block and a go block with a //go:generate line (got %q, %q)", shell, generate)
	return nil, ""
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, data, 0o644); err != nil {
		t.Fatal(err)
	}
}
