package docscheck

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// link is a Markdown link's target: ](target) or ](target "title").
var link = regexp.MustCompile(`\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)

// code is an inline code span, whose text is not a link.
var code = regexp.MustCompile("`[^`]*`")

// TestLinks: every relative link of README.md, BENCHMARKS.md and docs/**.md
// names a file or directory of the repository.
func TestLinks(t *testing.T) {
	files := []string{filepath.Join(root, "README.md"), filepath.Join(root, "BENCHMARKS.md")}
	err := filepath.WalkDir(filepath.Join(root, "docs"), func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".md") {
			files = append(files, path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		fenced := false
		for i, line := range bytes.Split(b, []byte("\n")) {
			if bytes.HasPrefix(line, []byte("```")) {
				fenced = !fenced
			}
			if fenced {
				continue
			}
			for _, m := range link.FindAllSubmatch(code.ReplaceAll(line, nil), -1) {
				target := string(m[1])
				if strings.Contains(target, "://") || strings.HasPrefix(target, "#") || strings.HasPrefix(target, "mailto:") {
					continue
				}
				target, _, _ = strings.Cut(target, "#")
				if _, err := os.Stat(filepath.Join(filepath.Dir(file), target)); err != nil {
					rel, _ := filepath.Rel(root, file)
					t.Errorf("%s:%d: link to %s: no such file", rel, i+1, m[1])
				}
			}
		}
	}
}

// TestReadmeLength: the README stays a first page, at most 250 lines; the
// detail goes to docs/.
func TestReadmeLength(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(b, []byte("\n")); n > 250 {
		t.Errorf("README.md has %d lines, more than 250: move detail to docs/", n)
	}
}
