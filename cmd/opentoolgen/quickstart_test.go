package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestQuickStart runs README's quick start as written, in a throw-away
// directory: the clone its first line makes is this working tree (a symbolic
// link of the clone's name to it), each line's commands (cd, mkdir and go,
// joined by &&) run in turn, the go get the generator prints must be the
// README's next line, and the last line, go run of the generated main with
// "mcp", is a real subprocess that must answer initialize and tools/list with
// the operations of the document. The module is built with -mod=readonly, so
// that a missing requirement fails as it would on a fresh machine (no go mod
// tidy), and nothing is fetched: GOPROXY=off and GOSUMDB=off take the
// dependencies from the module cache (go mod download fills it).
func TestQuickStart(t *testing.T) {
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
	lines := shellBlock(t, readme, "<!-- quick-start")
	clone, ok := strings.CutPrefix(lines[0], "git clone https://github.com/opentoolgen/")
	if !ok || strings.Contains(clone, " ") {
		t.Fatalf("the quick start does not begin with a git clone of the repository: %q", lines[0])
	}
	base := t.TempDir()
	if err := os.Symlink(root, filepath.Join(base, clone)); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "GOFLAGS=-mod=readonly", "GOPROXY=off", "GOSUMDB=off", "GOWORK=off")
	dir := base
	var printed string // the next command the generator printed, if any
	for i, line := range lines[1:] {
		last := i == len(lines)-2
		if printed != "" {
			if line != printed {
				t.Fatalf("opentoolgen printed the next command %q, the README's next line is %q", printed, line)
			}
			printed = ""
		}
		for _, c := range strings.Split(line, " && ") {
			f := strings.Fields(c)
			switch {
			case f[0] == "cd" && len(f) == 2:
				dir = filepath.Join(dir, f[1])
			case f[0] == "mkdir" && len(f) == 2:
				if err := os.Mkdir(filepath.Join(dir, f[1]), 0o755); err != nil {
					t.Fatal(err)
				}
			case f[0] == "go" && last:
				serveMCP(t, goCmd, dir, env, f[1:])
			case f[0] == "go":
				cmd := exec.Command(goCmd, f[1:]...)
				cmd.Dir, cmd.Env = dir, env
				var stderr bytes.Buffer
				cmd.Stdout, cmd.Stderr = &stderr, &stderr
				if err := cmd.Run(); err != nil {
					t.Fatalf("%s: %v\n%s", c, err, stderr.Bytes())
				}
				if _, next, ok := strings.Cut(stderr.String(), "next, run:\n\t"); ok {
					printed, _, _ = strings.Cut(next, "\n")
				}
			default:
				t.Fatalf("the quick start has a command this test does not know: %q", c)
			}
		}
	}
	if printed != "" {
		t.Fatalf("opentoolgen printed the next command %q, which the quick start does not run", printed)
	}
	// The typed client and everything else of the module build and vet as
	// they are.
	for _, args := range [][]string{{"build", "./..."}, {"vet", "./..."}} {
		cmd := exec.Command(goCmd, args...)
		cmd.Dir, cmd.Env = dir, env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
}

// serveMCP runs the quick start's go run of the server (args: run PACKAGE
// mcp) and talks MCP to it over its standard input and output: initialize,
// then tools/list, whose tools must be the petstore document's operations.
func serveMCP(t *testing.T, goCmd, dir string, env, args []string) {
	t.Helper()
	if len(args) != 3 || args[0] != "run" || args[2] != "mcp" {
		t.Fatalf("the quick start's last line is not go run PACKAGE mcp: go %s", strings.Join(args, " "))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, goCmd, args...)
	cmd.Dir, cmd.Env = dir, env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		stdin.Close() // the end of standard input ends the server
		if err := cmd.Wait(); err != nil && ctx.Err() == nil {
			t.Errorf("the server: %v\n%s", err, stderr.Bytes())
		}
	}()
	answers := bufio.NewScanner(stdout)
	answers.Buffer(nil, 4<<20)
	call := func(id int, method string, params any) json.RawMessage {
		t.Helper()
		req, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
		if _, err := fmt.Fprintf(stdin, "%s\n", req); err != nil {
			t.Fatalf("%s: %v\n%s", method, err, stderr.Bytes())
		}
		for answers.Scan() {
			var resp struct {
				ID     int             `json:"id"`
				Result json.RawMessage `json:"result"`
				Error  json.RawMessage `json:"error"`
			}
			if err := json.Unmarshal(answers.Bytes(), &resp); err != nil || resp.ID != id {
				continue // a notification
			}
			if resp.Error != nil {
				t.Fatalf("%s: error %s", method, resp.Error)
			}
			return resp.Result
		}
		t.Fatalf("%s: no answer (%v)\n%s", method, answers.Err(), stderr.Bytes())
		return nil
	}
	call(1, "initialize", map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "quickstart_test", "version": "1.0.0"}})
	fmt.Fprintf(stdin, "%s\n", `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	var list struct {
		Tools []struct {
			Name        string          `json:"name"`
			InputSchema json.RawMessage `json:"inputSchema"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(call(2, "tools/list", map[string]any{}), &list); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range list.Tools {
		names = append(names, tool.Name)
		if !bytes.Contains(tool.InputSchema, []byte(`"type":"object"`)) {
			t.Errorf("tool %s: inputSchema is not an object schema: %s", tool.Name, tool.InputSchema)
		}
	}
	for _, want := range []string{"listPets", "addPet"} {
		if !slices.Contains(names, want) {
			t.Errorf("tools/list lacks %s: %q", want, names)
		}
	}
}

// TestTestCommand checks that the test command of README's "Two commands" is
// the one CI runs (.ci/run), so that the two cannot drift apart.
func TestTestCommand(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	lines := shellBlock(t, readme, "## Two commands")
	if len(lines) != 2 {
		t.Fatalf("README's two commands are %d lines: %q", len(lines), lines)
	}
	test, _, _ := strings.Cut(lines[1], " #")
	test = strings.TrimSpace(test)
	ci, err := os.ReadFile("../../.ci/run")
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, l := range strings.Split(string(ci), "\n") {
		found = found || strings.TrimSpace(l) == test
	}
	if !found {
		t.Errorf(".ci/run does not run README's test command %q", test)
	}
}

// shellBlock returns the commands of the first sh block after marker in the
// README: its lines without comments (a # line, or what follows " # ") and
// empty lines.
func shellBlock(t *testing.T, readme []byte, marker string) []string {
	t.Helper()
	_, rest, ok := bytes.Cut(readme, []byte(marker))
	if !ok {
		t.Fatalf("README.md has no %q", marker)
	}
	var lines []string
	in := false
	sc := bufio.NewScanner(bytes.NewReader(rest))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case !in && line == "```sh":
			in = true
		case in && line == "```":
			if len(lines) == 0 {
				t.Fatalf("README's sh block after %q is empty", marker)
			}
			return lines
		case in && line != "" && !strings.HasPrefix(line, "#"):
			if i := strings.Index(line, " # "); i >= 0 {
				line = strings.TrimSpace(line[:i])
			}
			lines = append(lines, line)
		}
	}
	t.Fatalf("README has no sh block after %q", marker)
	return nil
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
