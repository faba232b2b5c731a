package prisme2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	yaml "github.com/oasdiff/yaml3"

	"github.com/opentoolgen/opentoolgen/gen"
)

const (
	ogenModule = "github.com/ogen-go/ogen@v1.14.0"
	kinModule  = "github.com/getkin/kin-openapi@v0.152.0"
)

// prismDocs are the public documents called through Prism, from ogen's and
// kin-openapi's test data in the module cache (read there, never copied in):
// a name without "kin:" is under ogen's _testdata.
var prismDocs = []string{
	"kin:openapi3/testdata/link-example.yaml",
	"examples/2ch.yml",
	"examples/ent.json",
	"examples/firecracker.json",
	"examples/manga.json",
	"examples/petstore-expanded.yml",
	"examples/petstore.yml",
	"examples/pokemon-api.json",
	"examples/superset.json",
	"examples/swagger-petstore.yml",
	"examples/techempower.json",
	"examples/tinkoff.json",
	"examples/telegram_bot_api.json",
	"positive/parameters.json",
	"positive/form.json",
	"positive/security.json",
	"positive/ex_route_params.json",
}

// notOurs are the rejections whose cause is the document or Prism, each
// checked by hand: the request follows the document.
var notOurs = map[string]string{
	"examples/superset.json get_api_v1_database_pk_select_star_table_name": "the document declares a path parameter schema_name its path template lacks; Prism requires it",
	"examples/telegram_bot_api.json editMessageMedia":                      "InputMedia's variants all declare type as any string: every value matches several, no value passes its oneOf",
	"examples/telegram_bot_api.json sendMediaGroup":                        "the same InputMedia oneOf no value can pass",
	"positive/form.json testFormURLEncoded":                                "Prism makes an absent deepObject field {} and then requires its max (curl with description=x alone is rejected too)",
	"positive/form.json testMultipart":                                     "the same deepObject reading of Prism's",
	"positive/form.json testMultipartUpload":                               "Prism reads no multipart field as an array (curl -F files=@a -F files=@b is rejected too)",
	"examples/2ch.yml post_user_posting (all arguments)":                   "Prism reads no multipart field as an array (file[])",
	"examples/2ch.yml post_user_report (all arguments)":                    "Prism reads no multipart field as an array (curl -F post=1 -F post=2 is rejected too)",
	"examples/telegram_bot_api.json deleteMyCommands (all arguments)":      "BotCommandScope's variants all declare type as any string: no value passes its oneOf",
	"examples/telegram_bot_api.json getMyCommands (all arguments)":         "the same BotCommandScope oneOf no value can pass",
	"examples/telegram_bot_api.json setMyCommands (all arguments)":         "the same BotCommandScope oneOf no value can pass",
	"positive/security.json customSecurity":                                "a Digest-like custom HTTP scheme the script gives no credentials for",
}

// TestPrism generates a package for each of prismDocs, starts `prism mock`
// on the document and calls every operation through the generated Tool
// adapter with the required arguments of its declaration. Opt-in: set
// OPENTOOLGEN_PRISM to the prism command (scripts/prism.sh installs it).
func TestPrism(t *testing.T) {
	prism := os.Getenv("OPENTOOLGEN_PRISM")
	if prism == "" {
		t.Skip("set OPENTOOLGEN_PRISM to the prism command (scripts/prism.sh) to call public documents' operations through Prism")
	}
	ogenDir, kinDir := moduleDir(t, ogenModule), moduleDir(t, kinModule)
	// The generated packages and the driver sit in a directory of this
	// module that ./... leaves out (its name begins with _).
	work, err := os.MkdirTemp(".", "_prism")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(work) })
	var imports, calls strings.Builder
	type started struct{ name, url string }
	var mocks []started
	for i, rel := range prismDocs {
		doc := filepath.Join(ogenDir, "_testdata", rel)
		if r, ok := strings.CutPrefix(rel, "kin:"); ok {
			doc = filepath.Join(kinDir, r)
		}
		data, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		pkg := fmt.Sprintf("p%02d", i)
		res, err := gen.Generate(doc, data, gen.Options{Package: pkg})
		if err != nil {
			t.Errorf("%s: %v", rel, err)
			continue
		}
		dir := filepath.Join(work, pkg)
		os.MkdirAll(dir, 0o755)
		for _, f := range res.Files {
			if err := os.WriteFile(filepath.Join(dir, f.Name), f.Content, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		url := startPrism(t, prism, doc)
		mocks = append(mocks, started{rel, url})
		basic, keys := securityOf(t, data)
		fmt.Fprintf(&imports, "\t%s \"github.com/opentoolgen/opentoolgen/internal/prisme2e/%s/%s\"\n", pkg, filepath.Base(work), pkg)
		fmt.Fprintf(&calls, "\t{\n\t\trec := &prisme2e.Recorder{}\n\t\tc, err := %s.NewClient(%q, %s.WithHTTPClient(rec.Client()), %s.WithRequestEditor(prisme2e.Auth(%v, %s)))\n\t\tif err != nil {\n\t\t\trun(%q, nil, err, rec)\n\t\t}\n\t\ttool, err := %s.NewTool(c)\n\t\trun(%q, tool, err, rec)\n\t}\n",
			pkg, url, pkg, pkg, basic, quoteAll(keys), rel, pkg, rel)
	}
	main := `package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/opentoolgen/opentoolgen/internal/prisme2e"
	"github.com/opentoolgen/opentoolgen/runtime"
` + imports.String() + `)

func run(doc string, tool runtime.Tool, err error, rec *prisme2e.Recorder) {
	if err != nil {
		fmt.Fprintln(os.Stderr, doc, err)
		os.Exit(1)
	}
	outs, err := prisme2e.Exercise(context.Background(), doc, tool, rec)
	if err != nil {
		fmt.Fprintln(os.Stderr, doc, err)
		os.Exit(1)
	}
	for _, o := range outs {
		line, _ := json.Marshal(o)
		fmt.Println(string(line))
	}
}

func main() {
` + calls.String() + `}
`
	os.MkdirAll(filepath.Join(work, "driver"), 0o755)
	if err := os.WriteFile(filepath.Join(work, "driver", "main.go"), []byte(main), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "run", "./"+filepath.ToSlash(filepath.Join(filepath.Base(work), "driver")))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.Output()
	if err != nil {
		t.Fatalf("driver: %v\n%s", err, stderr.Bytes())
	}
	type tally struct{ ops, ok, nomock, rejected, notOurs, security, nosample, other int }
	per := map[string]*tally{}
	var all tally
	sc := bufio.NewScanner(bytes.NewReader(stdout))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var o Outcome
		if err := json.Unmarshal(sc.Bytes(), &o); err != nil {
			t.Fatal(err)
		}
		tl := per[o.Doc]
		if tl == nil {
			tl = &tally{}
			per[o.Doc] = tl
		}
		reason, known := notOurs[o.Doc+" "+o.Function]
		if o.All {
			o.Function += " (all arguments)"
			if r, ok := notOurs[o.Doc+" "+o.Function]; ok {
				reason, known = r, true
			}
		}
		for _, x := range []*tally{tl, &all} {
			x.ops++
			switch {
			case o.Result == "ok":
				x.ok++
			case o.Result == "nomock":
				x.nomock++
			case o.Result == "nosample":
				x.nosample++
			case known:
				x.notOurs++
			case o.Result == "rejected":
				x.rejected++
			case o.Result == "security":
				x.security++
			default:
				x.other++
			}
		}
		switch {
		case o.Result == "ok" || o.Result == "nomock" || o.Result == "nosample":
		case known:
			t.Logf("%s %s: %s (not ours: %s)", o.Doc, o.Function, o.Result, reason)
		case o.Result == "rejected":
			t.Errorf("%s %s(%s): Prism rejected the request (%d): %s", o.Doc, o.Function, o.Args, o.Status, o.Violation)
		default:
			t.Errorf("%s %s(%s): %s (%d) %s %s", o.Doc, o.Function, o.Args, o.Result, o.Status, o.Err, o.Violation)
		}
	}
	names := make([]string, 0, len(per))
	for n := range per {
		names = append(names, n)
	}
	sort.Strings(names)
	var table strings.Builder
	fmt.Fprintf(&table, "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", "document", "calls", "accepted", "accepted, no mock response", "rejected: ours", "rejected: document or Prism", "401", "no sample", "other")
	fmt.Fprintf(&table, "|---|--:|--:|--:|--:|--:|--:|--:|--:|\n")
	for _, n := range append(names, "total") {
		tl := per[n]
		if n == "total" {
			tl = &all
		}
		fmt.Fprintf(&table, "| %s | %d | %d | %d | %d | %d | %d | %d | %d |\n", n, tl.ops, tl.ok, tl.nomock, tl.rejected, tl.notOurs, tl.security, tl.nosample, tl.other)
	}
	called := all.ops - all.nosample
	if called > 0 {
		accepted := all.ok + all.nomock
		fmt.Fprintf(&table, "\n%d documents, %d operations, %d calls (required arguments, then all), %d made, %d accepted by Prism (%.1f %%), %d rejected for the document's or Prism's reasons, %d for ours\n",
			len(mocks), all.ops/2, all.ops, called, accepted, 100*float64(accepted)/float64(called), all.notOurs, all.rejected)
	}
	t.Log("\n" + table.String())
}

// moduleDir downloads a module (go mod download) and returns its directory.
func moduleDir(t *testing.T, mod string) string {
	out, err := exec.Command("go", "mod", "download", "-json", mod).Output()
	if err != nil {
		t.Fatalf("go mod download %s: %v", mod, err)
	}
	var m struct{ Dir string }
	if err := json.Unmarshal(out, &m); err != nil || m.Dir == "" {
		t.Fatalf("go mod download %s: %s", mod, out)
	}
	return m.Dir
}

func quoteAll(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = fmt.Sprintf("%q", s)
	}
	return strings.Join(q, ", ")
}

// securityOf reads the security schemes of an OpenAPI 3 or Swagger 2.0
// document: whether one is HTTP basic, and its API keys as "in:name".
func securityOf(t *testing.T, data []byte) (basic bool, keys []string) {
	var doc map[string]any
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	schemes, _ := doc["securityDefinitions"].(map[string]any)
	if c, ok := doc["components"].(map[string]any); ok {
		schemes, _ = c["securitySchemes"].(map[string]any)
	}
	bearer := false
	for _, s := range schemes {
		m, _ := s.(map[string]any)
		switch m["type"] {
		case "basic":
			basic = true
		case "http":
			if strings.EqualFold(fmt.Sprint(m["scheme"]), "basic") {
				basic = true
			} else {
				bearer = true
			}
		case "oauth2", "openIdConnect":
			bearer = true
		case "apiKey":
			if strings.EqualFold(fmt.Sprint(m["name"]), "Authorization") && m["in"] == "header" {
				continue
			}
			keys = append(keys, fmt.Sprint(m["in"])+":"+fmt.Sprint(m["name"]))
		}
	}
	sort.Strings(keys)
	return basic && !bearer, keys
}

// startPrism runs `prism mock` on doc on a free port and returns its URL
// once it answers.
func startPrism(t *testing.T, prism, doc string) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	cmd := exec.Command(prism, "mock", "-h", "127.0.0.1", "-p", fmt.Sprint(port), doc)
	log := &syncBuffer{}
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	url := fmt.Sprintf("http://127.0.0.1:%d", port)
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		if c, err := net.Dial("tcp", l.Addr().String()); err == nil {
			c.Close()
			resp, err := http.Get(url + "/")
			if err == nil {
				resp.Body.Close()
				return url
			}
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Fatalf("prism mock %s did not start: %s", doc, log.String())
	return ""
}

// syncBuffer is a bytes.Buffer safe for the writes of a subprocess and reads.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
