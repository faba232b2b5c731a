package emit

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestArticle: the article before a Go identifier is the one it is read
// with.
func TestArticle(t *testing.T) {
	for ident, want := range map[string]string{
		"runtime.Caller":       "a",
		"*runtime.Client":      "a",
		"*runtime.Error":       "a",
		"*rest.APIError[T]":    "a",
		"*dynlib.LibraryError": "a",
		"*mcpbridge.Tool":      "an",
		"*oauth2cred.Source":   "an",
		"http.Client":          "an",
		"*url.URL":             "a",
		"iter.Seq2":            "an",
		"[]byte":               "a",
		"Args":                 "an",
		"OpenTool":             "an",
		"Service":              "a",
		"URL":                  "a",
		"URLValue":             "a",
		"HTTPClient":           "an",
		"MCPTool":              "an",
		"SQLQuery":             "an",
		"JSONBody":             "a",
		"UserArgs":             "a",
		"UploadArgs":           "an",
		"UintValue":            "a",
		"OneOf":                "a",
		"HourlyArgs":           "an",
		"HelloArgs":            "a",
		"ErrorResponse":        "an",
		"ListPetsArgs":         "a",
		"xml.Decoder":          "an",
		"sqlite.Conn":          "an", // S-Q-L-ite
		"slack.Client":         "a",
		"idempotency.Key":      "an",
	} {
		if got, _, _ := strings.Cut(an(ident), " "); got != want {
			t.Errorf("an(%q) = %q, want %q", ident, an(ident), want+" "+ident)
		}
	}
}

// TestGoldenArticles: in the comments of every golden file, a package's
// identifier (runtime.Caller, *rest.Error) follows the article it is read
// with.
func TestGoldenArticles(t *testing.T) {
	re := regexp.MustCompile(`//.*\b(a|an|A|An) (\*?(?:\[\])?[a-z][a-z0-9]*\.[A-Z][A-Za-z0-9]*)`)
	files, _ := filepath.Glob("../../testdata/golden/*/*.gen.go")
	if len(files) == 0 {
		t.Fatal("no golden files")
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range re.FindAllStringSubmatch(string(data), -1) {
			if want := an(m[2]); !strings.EqualFold(m[1]+" "+m[2], want) {
				t.Errorf("%s: %q, want %q", f, m[1]+" "+m[2], want)
			}
		}
	}
}
