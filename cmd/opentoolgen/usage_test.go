package main

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHelp checks that -h and --help print the manual's flag list on stdout
// (help asked for is the output: opentoolgen -h | less) and exit 0, writing
// nothing else.
func TestHelp(t *testing.T) {
	dir := t.TempDir()
	for _, arg := range []string{"-h", "--help", "-help"} {
		before := snapshot(t, dir)
		r := opentoolgen(t, dir, arg)
		r.want(t, 0)
		for _, want := range []string{"usage: opentoolgen [flags] DOCUMENT", "-o DIR", "-pkg NAME", "-check", "-document FILE", "-allow-ref-dir DIR", "-q", "-version"} {
			if !strings.Contains(r.stdout, want) {
				t.Errorf("opentoolgen %s: the help on stdout lacks %q:\n%s", arg, want, r.stdout)
			}
		}
		if r.stderr != "" {
			t.Errorf("opentoolgen %s: wrote to stderr: %q", arg, r.stderr)
		}
		unchanged(t, dir, before)
	}
}

// TestHelpKinds checks that the help names the input kinds, MCP's included.
func TestHelpKinds(t *testing.T) {
	r := opentoolgen(t, t.TempDir(), "-h")
	r.want(t, 0)
	for _, want := range []string{"OpenTool", "OpenDyn", "OpenAPI/Swagger", "MCP server's saved tools/list result", "JSON-RPC response"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("the help lacks %q:\n%s", want, r.stdout)
		}
	}
}

// TestUnknownFlagSuggests checks that a mistyped flag is bad usage (exit 2,
// on stderr, nothing written) that names the flag most likely meant, and
// that a flag like none names none.
func TestUnknownFlagSuggests(t *testing.T) {
	dir := t.TempDir()
	put(t, filepath.Join(dir, "tool.json"), toolDoc)
	before := snapshot(t, dir)
	for _, tc := range []struct{ flag, want string }{
		{"-ouptut", "-o"},
		{"--output", "-o"},
		{"-pgk", "-pkg"},
		{"-chek", "-check"},
		{"-decl", "-declarations"},
		{"-quiet", "-q"},
		{"-Version", "-version"},
		{"-zzz", ""},
	} {
		r := opentoolgen(t, dir, tc.flag, "out", "tool.json")
		r.want(t, 2)
		if r.stdout != "" {
			t.Errorf("%s: wrote to stdout: %q", tc.flag, r.stdout)
		}
		if !strings.Contains(r.stderr, "flag provided but not defined: -"+strings.TrimLeft(tc.flag, "-")) {
			t.Errorf("%s: stderr does not name the flag:\n%s", tc.flag, r.stderr)
		}
		switch {
		case tc.want == "" && strings.Contains(r.stderr, "did you mean"):
			t.Errorf("%s: a suggestion for a flag like none:\n%s", tc.flag, r.stderr)
		case tc.want != "" && !strings.Contains(r.stderr, "(did you mean "+tc.want+"?)"):
			t.Errorf("%s: stderr does not suggest %s:\n%s", tc.flag, tc.want, r.stderr)
		}
	}
	unchanged(t, dir, before)
}

// TestFlagsAfterDocument checks that flags given after the document are
// reported as such, not as extra documents.
func TestFlagsAfterDocument(t *testing.T) {
	dir := t.TempDir()
	put(t, filepath.Join(dir, "tool.json"), toolDoc)
	before := snapshot(t, dir)
	r := opentoolgen(t, dir, "tool.json", "-o", "out")
	r.want(t, 2)
	if !strings.Contains(r.stderr, "flags go before the document") || !strings.Contains(r.stderr, `"-o"`) {
		t.Errorf("stderr does not say that flags go before the document:\n%s", r.stderr)
	}
	if strings.Contains(r.stderr, "got 3") {
		t.Errorf("stderr counts the flags as documents:\n%s", r.stderr)
	}
	unchanged(t, dir, before)
}

// TestUnwritableOutput checks that nothing is written when one of the outputs
// cannot be written, and that the error names the path the user gave (not a
// temporary file).
func TestUnwritableOutput(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		path string // what the error must name
	}{
		// notadir is a regular file: nothing can be created beneath it.
		{"document", []string{"-o", "out", "-document", "notadir/doc.json", "tool.json"}, "notadir/doc.json"},
		{"out", []string{"-o", "notadir/out", "-document", "doc.json", "tool.json"}, "notadir/out"},
		// a directory where the document should go
		{"document is a directory", []string{"-o", "out", "-document", "adir", "tool.json"}, "adir"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			put(t, filepath.Join(dir, "tool.json"), toolDoc)
			put(t, filepath.Join(dir, "notadir"), "a file")
			put(t, filepath.Join(dir, "adir", "keep"), "x")
			before := snapshot(t, dir)
			r := opentoolgen(t, dir, tc.args...)
			r.want(t, 1)
			if !strings.Contains(r.stderr, tc.path) {
				t.Errorf("stderr does not name %s:\n%s", tc.path, r.stderr)
			}
			if strings.Contains(r.stderr, ".opentoolgen-") {
				t.Errorf("stderr names a temporary file:\n%s", r.stderr)
			}
			unchanged(t, dir, before)
		})
	}
}

// TestDocumentTooLarge checks that a document over gen.MaxFileBytes is
// refused before it is read whole, naming the file and the limit.
func TestDocumentTooLarge(t *testing.T) {
	dir := t.TempDir()
	f, err := os.Create(filepath.Join(dir, "big.json"))
	if err != nil {
		t.Fatal(err)
	}
	// a sparse file: large, but costs no disk
	if err := f.Truncate(65<<20 + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	r := opentoolgen(t, dir, "-o", "out", "big.json")
	r.want(t, 1)
	if !strings.Contains(r.stderr, "big.json") || !strings.Contains(r.stderr, "64 MiB") {
		t.Errorf("stderr does not name the file and the limit:\n%s", r.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "out")); !os.IsNotExist(err) {
		t.Errorf("out was created: %v", err)
	}
}

// TestHelpFlagsDocumented checks that the flags of the package doc, which -h
// prints, are the flags the command has: each flag of flagSet has its entry
// ("-name ARG" at the start of a line of the flags block), and each entry
// names a flag of flagSet (-h and -help are the flag package's own).
func TestHelpFlagsDocumented(t *testing.T) {
	var block []string
	ps := docParagraphs(doc)
	for i, p := range ps {
		if !p.indented && strings.HasPrefix(p.lines[0], "The flags are:") && i+1 < len(ps) {
			block = ps[i+1].lines
		}
	}
	if len(block) == 0 {
		t.Fatal("the package doc has no indented block after \"The flags are:\"")
	}
	documented := map[string]bool{}
	for _, l := range block {
		if strings.HasPrefix(l, "\t-") { // an entry; its text is indented twice
			for _, f := range strings.Split(strings.TrimSpace(l), ", ") {
				documented[strings.TrimPrefix(strings.Fields(f)[0], "-")] = true
			}
		}
	}
	fs := flagSet(&options{})
	fs.VisitAll(func(f *flag.Flag) {
		if !documented[f.Name] {
			t.Errorf("flag -%s is not in the package doc's flags", f.Name)
		}
		delete(documented, f.Name)
	})
	delete(documented, "h")
	delete(documented, "help")
	for name := range documented {
		t.Errorf("the package doc documents -%s, which the command does not have", name)
	}
}
