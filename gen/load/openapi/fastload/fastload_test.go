package fastload

import (
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/google/go-cmp/cmp"

	"github.com/opentoolgen/opentoolgen/gen/source"
	"github.com/opentoolgen/opentoolgen/internal/jsontree"
)

// fastCases are documents written to reach the corners of kin-openapi's
// decoding that Load copies: each must take the fast path (want true) or
// give up (false), and give what json.Unmarshal gives either way.
var fastCases = []struct {
	name string
	fast bool
	doc  string
}{
	{"everything common", true, `{"openapi":"3.0.3","info":{"title":"t","version":"1"},"x-top":1,
	 "tags":[{"name":"a"}],"servers":[{"url":"https://x/{v}","variables":{"v":{"default":"1"}}}],
	 "paths":{"x-p":{"a":[1,2.50,null]},"/a/{id}":{"summary":"s","x-item":true,"parameters":[{"$ref":"#/components/parameters/id"}],
	   "get":{"operationId":"get","tags":["a","b"],"deprecated":true,"x-op":{"k":"v"},"security":[{"k":[]}],"servers":[{"url":"/v2"}],
	     "externalDocs":{"url":"https://d"},"callbacks":{"cb":{"{$request.body#/u}":{"post":{"responses":{"200":{"description":"ok"}}}}}},
	     "parameters":[{"name":"q","in":"query","explode":false,"style":"form","allowReserved":true,"example":[1,"a"],
	        "schema":{"type":"integer","minimum":-1.5e3,"maximum":1e21,"exclusiveMinimum":true,"multipleOf":0.5,"default":3,"enum":[1,2,3.0,9007199254740993]}},
	       {"name":"h","in":"header","content":{"application/json":{"schema":{"type":"object","additionalProperties":{"type":"number","maximum":9007199254740993}}}}},
	       null],
	     "requestBody":{"required":true,"description":"b","x-rb":null,"content":{"application/json":{"schema":{"$ref":"#/components/schemas/Pet"},"example":{"a":1},
	        "examples":{"e":{"value":1}},"encoding":{"f":{"contentType":"text/plain"}}},"text/plain":null}},
	     "responses":{"x-r":[],"default":null,"200":{"description":"ok","headers":{"X-Rate":{"schema":{"type":"integer","maxLength":10}},"X-Ref":{"$ref":"#/components/headers/h"},"n":null},
	        "links":{"l":{"operationId":"get"}},"content":{"application/json":{"schema":{"type":"array","minItems":1,"maxItems":9007199254740993,"uniqueItems":true,
	        "items":{"oneOf":[{"$ref":"#/components/schemas/Pet"},{"type":"string","format":"uuid","pattern":"^a$","nullable":true,"readOnly":true}],
	          "discriminator":{"propertyName":"kind","mapping":{"p":"#/components/schemas/Pet"}}}}}}},
	       "404":{"$ref":"#/components/responses/NotFound"}}},
	   "put":null,"post":{"responses":{"201":{"description":"c","content":{"application/json":{"schema":{"additionalProperties":{}}}}}}}},
	  "/b":null},
	 "components":{"x-c":"c",
	   "schemas":{"Pet":{"type":"object","required":["id"],"properties":{"id":{"type":"integer","format":"int64","minimum":1,"maxLength":9007199254740993},
	     "name":{"type":"string","minLength":1,"maxLength":100,"x-go":"Name","title":"T","deprecated":true,"writeOnly":true,"example":"rex"},
	     "tags":{"type":"array","items":{"type":"string"},"minItems":0},"self":{"$ref":"#/components/schemas/Pet"},
	     "any":{},"bool":true,"free":{"type":"object","additionalProperties":true,"minProperties":1,"maxProperties":5},
	     "xml":{"type":"string","xml":{"name":"X","attribute":true}},"allof":{"allOf":[{"$ref":"#/components/schemas/Pet"},{"description":"d"}]},
	     "anyof":{"anyOf":[{"type":"string"},{"type":"integer"}],"not":{"type":"boolean"}}}},
	     "Nothing":null,"Types":{"type":["string","null"]}},
	   "parameters":{"id":{"name":"id","in":"path","required":true,"schema":{"type":"string"}},"none":null},
	   "headers":{"h":{"description":"h","schema":{"type":"string"}}},
	   "requestBodies":{"rb":{"content":{"text/plain":{"schema":{"type":"string"}}}}},
	   "responses":{"NotFound":{"description":"nf","content":{"application/json":{"schema":{"$ref":"#/components/schemas/Pet"}}}}},
	   "securitySchemes":{"k":{"type":"apiKey","in":"header","name":"K"}},
	   "examples":{"e":{"summary":"s","value":{"a":1}}},"links":{"l":{"operationId":"get"}},
	   "callbacks":{"c":{"/x":{"get":{"responses":{"200":{"description":"ok"}}}}}}}}`},
	{"openapi 3.1", true, `{"openapi":"3.1.0","info":{"title":"t","version":"1"},"jsonSchemaDialect":"https://json-schema.org/draft/2020-12/schema",
	 "webhooks":{"new":{"post":{"requestBody":{"content":{"application/json":{"schema":{"$ref":"#/components/schemas/S"}}}},"responses":{"200":{"description":"ok"}}}},"none":null},
	 "paths":{"/s":{"get":{"responses":{"200":{"description":"ok","content":{"text/event-stream":{"itemSchema":{"type":"object","properties":{"data":{"contentMediaType":"application/json","contentSchema":{"$ref":"#/components/schemas/S"}}}}}}}}}}},
	 "components":{"schemas":{"S":{"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"s","$anchor":"a","$comment":"c",
	   "type":"object","const":{"a":[1]},"examples":[1,"two"],"prefixItems":[{"type":"string"},true,false],"contains":{"type":"integer"},"minContains":1,"maxContains":3,
	   "patternProperties":{"^x":{"type":"string"}},"dependentSchemas":{"a":{"required":["b"]}},"propertyNames":{"pattern":"^[a-z]+$"},
	   "unevaluatedItems":false,"unevaluatedProperties":{"type":"string"},"if":{"required":["a"]},"then":{"required":["b"]},"else":{},
	   "dependentRequired":{"a":["b","c"]},"$defs":{"D":{"type":"number","exclusiveMinimum":0,"exclusiveMaximum":1e2}},"$dynamicAnchor":"d",
	   "contentEncoding":"base64","properties":{"r":{"$ref":"#/components/schemas/S","description":"sibling"}}}}}}`},
	{"numbers round-tripped under paths", true, `{"openapi":"3.0.0","info":{"title":"t","version":"1"},
	 "paths":{"/":{"get":{"parameters":[{"name":"a","in":"query","schema":{"type":"integer","minLength":1e2,"maxLength":1.0,"minimum":1.00000000000000000001}}],"responses":{}}}}}`},
	{"uint64 overflow after the float64 round trip", false, `{"openapi":"3.0.0","info":{"title":"t","version":"1"},"paths":{"/":{"get":{"parameters":[{"name":"a","in":"query","schema":{"maxItems":18446744073709551615}}],"responses":{}}}}}`},
	{"uint literal not an integer outside paths", false, `{"openapi":"3.0.0","info":{"title":"t","version":"1"},"paths":{},"components":{"schemas":{"A":{"maxLength":1.0}}}}`},
	{"number out of range", false, `{"openapi":"3.0.0","info":{"title":"t","version":"1"},"paths":{},"components":{"schemas":{"A":{"default":1e400}}}}`},
	{"key of another case", false, `{"openapi":"3.0.0","info":{"title":"t","version":"1"},"paths":{},"components":{"schemas":{"A":{"Type":"string"}}}}`},
	{"paths of another case", false, `{"openapi":"3.0.0","info":{"title":"t","version":"1"},"Paths":{}}`},
	{"$REF", false, `{"openapi":"3.0.0","info":{"title":"t","version":"1"},"paths":{},"components":{"schemas":{"A":{"$REF":"#/components/schemas/B"},"B":{"type":"string"}}}}`},
	{"wrong kind", false, `{"openapi":"3.0.0","info":{"title":"t","version":"1"},"paths":{"/":{"get":{"summary":5,"responses":{}}}}}`},
	{"responses null", false, `{"openapi":"3.0.0","info":{"title":"t","version":"1"},"paths":{"/":{"get":{"responses":null}}}}`},
	{"ref at the top", false, `{"openapi":"3.0.0","info":{"title":"t","version":"1","description":{"$ref":"#/x"}},"paths":{}}`},
	{"strings", true, "{\"openapi\":\"3.0.0\",\"info\":{\"title\":\"t\",\"version\":\"1\"},\"paths\":{\"/\\u00e9\":{\"description\":\"a\\ud800b \xff <&> \\u2028\",\"x-s\":\"\\ud83d\\ude00\"}}}"},
	{"broken ref", true, `{"openapi":"3.0.0","info":{"title":"t","version":"1"},"paths":{"/":{"get":{"responses":{"200":{"$ref":"#/components/responses/Nope"}}}}}}`},
	{"no paths", true, `{"openapi":"3.1.0","info":{"title":"t","version":"1"},"components":{"schemas":{"A":{"type":"string"}}}}`},
	{"webhook receivers: callbacks by reference, webhooks with headers and extensions", true, `{"openapi":"3.1.0","info":{"title":"t","version":"1"},"x-webhook-signature":"stripe",
	 "paths":{"/s":{"post":{"operationId":"sub","responses":{"201":{"description":"ok"}},"callbacks":{"a":{"$ref":"#/components/callbacks/C"},
	   "b":{"{$request.body#/u}":{"x-webhook-signature":"github","post":{"parameters":[{"name":"X-Hub-Signature-256","in":"header","schema":{"type":"string"}}],"responses":{"200":{"description":"ok"}}}}}}}}},
	 "webhooks":{"w":{"x-webhook-signature":"none","put":{"x-webhook-signature":"standard","parameters":[{"name":"webhook-id","in":"header","required":true,"schema":{"type":"string"}}],
	   "requestBody":{"content":{"text/plain":{"schema":{"type":"string","maxLength":3}}}}}}},
	 "components":{"callbacks":{"C":{"{$request.body#/u}/c":{"post":{"requestBody":{"content":{"application/json":{"schema":{"type":"object"}}}}}}}}}}`},
	{"paths null", true, `{"openapi":"3.0.0","info":{"title":"t","version":"1"},"paths":null,"components":null,"webhooks":null}`},
	{"3.2 additional operations", true, `{"openapi":"3.2.0","info":{"title":"t","version":"1"},"paths":{"/":{"additionalOperations":{"COPY":{"operationId":"copy","responses":{"200":{"description":"ok"}}},"none":null},
	 "query":{"responses":{"default":{"description":"d","content":{"application/json":{"itemSchema":{"type":"string"}}}}}}}}}`},
	{"boolean schemas in lists and maps", true, `{"openapi":"3.1.0","info":{"title":"t","version":"1"},"paths":{"/":{"get":{"responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"allOf":[true,{"type":"string"},null],"properties":{"a":false,"b":null}}}}}}}}}}`},
	{"a number in a map of references", false, `{"openapi":"3.0.0","info":{"title":"t","version":"1"},"paths":{},"components":{"examples":{"e":5}}}`},
	{"a string in the parameters", false, `{"openapi":"3.0.0","info":{"title":"t","version":"1"},"paths":{"/":{"get":{"parameters":["p"],"responses":{}}}}}`},
	{"reference siblings", true, `{"openapi":"3.1.0","info":{"title":"t","version":"1"},"paths":{"/":{"get":{"parameters":[{"$ref":"#/components/parameters/p","description":"over","x-a":1}],
	 "requestBody":{"$ref":"#/components/requestBodies/b","summary":"s"},"responses":{"200":{"$ref":"#/components/responses/r","other":[1]}}}}},
	 "components":{"parameters":{"p":{"name":"p","in":"query"}},"requestBodies":{"b":{"content":{}}},"responses":{"r":{"description":"r","headers":{"h":{"$ref":"#/components/headers/h","x-h":true}}}},
	 "headers":{"h":{"schema":{"type":"string"}}}}}`},
}

// slowLoad loads data the usual way.
func slowLoad(data []byte, loc *url.URL) (*openapi3.T, error) {
	l := openapi3.NewLoader()
	l.IsExternalRefsAllowed = true
	return l.LoadFromDataWithPath(data, loc)
}

// compareFast loads src both ways and fails on any difference; it returns
// whether the fast path was taken.
func compareFast(t *testing.T, name string, src *source.Source) bool {
	t.Helper()
	loc := &url.URL{Path: filepath.ToSlash(name)}
	fl := openapi3.NewLoader()
	fl.IsExternalRefsAllowed = true
	fast, ok, ferr := Load(fl, src.Tree, src.JSON, loc)
	if !ok {
		return false
	}
	// The parts Load decodes, before references are resolved, with a
	// readable difference.
	var plain openapi3.T
	if err := json.Unmarshal(src.JSON, &plain); err != nil {
		t.Errorf("%s: fast path taken, but json.Unmarshal fails: %v", name, err)
		return true
	}
	d := &decoder{data: src.JSON}
	for _, m := range src.Tree.Members {
		var got, want any
		var err error
		switch m.Key {
		case "paths":
			if m.Value.Kind != jsontree.Null {
				got, err = d.paths(m.Value)
			} else {
				got = (*openapi3.Paths)(nil)
			}
			want = plain.Paths
		case "components":
			if m.Value.Kind != jsontree.Null {
				got, err = components.decode(d, m.Value, false)
			} else {
				got = (*openapi3.Components)(nil)
			}
			want = plain.Components
		default:
			continue
		}
		if err != nil {
			t.Errorf("%s: %s: %v", name, m.Key, err)
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %s decoded differently (-json.Unmarshal +fast):\n%s", name, m.Key,
				cmp.Diff(want, got, cmp.Exporter(func(reflect.Type) bool { return true })))
		}
	}
	slow, serr := slowLoad(src.JSON, loc)
	if (ferr == nil) != (serr == nil) || ferr != nil && ferr.Error() != serr.Error() {
		t.Errorf("%s: errors differ: fast %v, usual %v", name, ferr, serr)
		return true
	}
	if !reflect.DeepEqual(fast, slow) {
		t.Errorf("%s: the loaded documents differ", name)
	}
	return true
}

func TestFastLoadSame(t *testing.T) {
	for _, c := range fastCases {
		src, err := source.ReadSource(c.name+".json", []byte(c.doc))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := compareFast(t, c.name+".json", src); got != c.fast {
			t.Errorf("%s: fast path taken %v, want %v", c.name, got, c.fast)
		}
	}
	// The repository's OpenAPI documents (YAML ones through their JSON
	// form), and the shared examples' when they are there.
	var files []string
	for _, pat := range []string{"../../../../testdata/*/*/*", "../../../../testdata/*/*", "../../../../examples/*/*", "/work/shared/examples/*/*"} {
		for _, ext := range []string{".yaml", ".yml", ".json"} {
			more, _ := filepath.Glob(pat + ext)
			for _, f := range more {
				// not the packages gen's tests write and remove meanwhile
				if !strings.Contains(filepath.ToSlash(f), "/testdata/tmp-") {
					files = append(files, f)
				}
			}
		}
	}
	taken, total, _ := compareFiles(t, files)
	t.Logf("the fast path was taken for %d of %d OpenAPI 3 documents", taken, total)
	if taken < 12 {
		t.Errorf("the fast path was taken for %d of the repository's OpenAPI documents, want at least 12", taken)
	}
}

// TestFastLoadDuplicate: an object with a repeated member name (which the
// source reader may let through with a warning) is left to encoding/json,
// whose merging of the two values Load does not copy.
func TestFastLoadDuplicate(t *testing.T) {
	str := func(s string) *jsontree.Node { return &jsontree.Node{Kind: jsontree.String, Str: s} }
	n := &jsontree.Node{Kind: jsontree.Object, Members: []jsontree.Member{{Key: "type", Value: str("string")}, {Key: "title", Value: str("t")}}}
	d := &decoder{}
	if _, err := schema.decode(d, n, false); err != nil {
		t.Fatalf("without a duplicate: %v", err)
	}
	n.Members = append(n.Members, jsontree.Member{Key: "type", Value: str("integer")})
	if _, err := schema.decode(d, n, false); err != errSlow {
		t.Errorf("with a duplicate: got %v, want errSlow", err)
	}
	many := &jsontree.Node{Kind: jsontree.Object}
	for i := range 20 {
		many.Members = append(many.Members, jsontree.Member{Key: string(rune('a' + i)), Value: n})
	}
	if !hasDuplicate(append(many.Members, jsontree.Member{Key: "c"})) || hasDuplicate(many.Members) {
		t.Error("hasDuplicate is wrong on a large object")
	}
}

// TestFastLoadRealWorld compares the two ways on every OpenAPI 3 document of
// ogen's and kin-openapi's test data (opt-in: OPENTOOLGEN_REALWORLD=1).
func TestFastLoadRealWorld(t *testing.T) {
	if os.Getenv("OPENTOOLGEN_REALWORLD") == "" {
		t.Skip("set OPENTOOLGEN_REALWORLD=1 to compare on the public documents in the module cache")
	}
	mod := filepath.Join(os.Getenv("HOME"), "go", "pkg", "mod", "github.com")
	var files []string
	for _, pat := range []string{"ogen-go/ogen@*/_testdata/*/*", "ogen-go/ogen@*/_testdata/*/*/*", "getkin/kin-openapi@*/openapi3/testdata/*", "getkin/kin-openapi@*/openapi3/testdata/*/*"} {
		m, _ := filepath.Glob(filepath.Join(mod, pat))
		files = append(files, m...)
	}
	taken, total, gaveUp := compareFiles(t, files)
	t.Logf("fast path taken for %d of %d OpenAPI 3 documents; gave up on: %s", taken, total, strings.Join(gaveUp, " "))
}

// compareFiles compares the two ways on the OpenAPI 3 documents among files
// (JSON or YAML), and returns on how many the fast path was taken, of how
// many, and the names of those on which it gave up.
func compareFiles(t *testing.T, files []string) (taken, total int, gaveUp []string) {
	t.Helper()
	for _, f := range files {
		if !strings.HasSuffix(f, ".json") && !strings.HasSuffix(f, ".yaml") && !strings.HasSuffix(f, ".yml") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		src, err := source.ReadSource(f, data)
		if err != nil || src.Tree.Kind != jsontree.Object || src.Tree.Get("openapi") == nil {
			continue
		}
		total++
		if compareFast(t, f, src) {
			taken++
		} else {
			gaveUp = append(gaveUp, filepath.Base(f))
		}
	}
	return taken, total, gaveUp
}

// FuzzFastLoad: whenever the fast path is taken, it gives what
// kin-openapi's own decoding gives.
func FuzzFastLoad(f *testing.F) {
	for _, c := range fastCases {
		f.Add(c.doc)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		src, err := source.ReadSource("f.json", []byte(doc))
		if err != nil || src.Tree.Kind != jsontree.Object || src.JSON == nil {
			return
		}
		compareFast(t, "f.json", src)
	})
}

// BenchmarkFastLoad measures loading an already parsed OpenAPI document
// into kin-openapi's values: the fast path (fast; decode: only its own
// decoding of paths and components) against kin-openapi's own decoding
// (usual). It runs on the golden petstore and on a generated
// document of 300 operations; with OPENTOOLGEN_REALWORLD set, also on
// Kubernetes' and GitHub's documents from ogen's test data (downloaded with
// go mod download).
func BenchmarkFastLoad(b *testing.B) {
	docs := map[string][]byte{"synthetic.json": syntheticDocument(300)}
	var err error
	if docs["petstore.yaml"], err = os.ReadFile("../../../../testdata/golden/openapi-petstore/petstore.yaml"); err != nil {
		b.Fatal(err)
	}
	if os.Getenv("OPENTOOLGEN_REALWORLD") != "" {
		out, err := exec.Command("go", "mod", "download", "-json", "github.com/ogen-go/ogen@v1.14.0").Output()
		var info struct{ Dir string }
		if err != nil || json.Unmarshal(out, &info) != nil {
			b.Fatalf("go mod download: %v %s", err, out)
		}
		for _, name := range []string{"k8s.json", "api.github.com.json"} {
			if docs[name], err = os.ReadFile(filepath.Join(info.Dir, "_testdata", "examples", name)); err != nil {
				b.Fatal(err)
			}
		}
	}
	names := make([]string, 0, len(docs))
	for name := range docs {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		src, err := source.ReadSource(name, docs[name])
		if err != nil {
			b.Fatal(err)
		}
		loc := &url.URL{Path: name}
		b.Run(name+"/fast", func(b *testing.B) {
			b.SetBytes(int64(len(docs[name])))
			b.ReportAllocs()
			for b.Loop() {
				l := openapi3.NewLoader()
				l.IsExternalRefsAllowed = true
				if _, ok, err := Load(l, src.Tree, src.JSON, loc); !ok || err != nil {
					b.Fatalf("fast path not taken (%v) or failed: %v", ok, err)
				}
			}
		})
		// Only the decoding this package does itself, without kin-openapi's
		// loading of the rest and resolving of references.
		b.Run(name+"/decode", func(b *testing.B) {
			b.SetBytes(int64(len(docs[name])))
			b.ReportAllocs()
			for b.Loop() {
				d := &decoder{data: src.JSON}
				for _, m := range src.Tree.Members {
					var err error
					switch m.Key {
					case "paths":
						_, err = d.paths(m.Value)
					case "components":
						_, err = components.decode(d, m.Value, false)
					}
					if err != nil {
						b.Fatalf("%s: %v", m.Key, err)
					}
				}
			}
		})
		b.Run(name+"/usual", func(b *testing.B) {
			b.SetBytes(int64(len(docs[name])))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := slowLoad(src.JSON, loc); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// syntheticDocument writes an OpenAPI 3.0 document of n operations, each
// with parameters, a request body, responses and a component schema of its
// own, for BenchmarkFastLoad.
func syntheticDocument(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"openapi":"3.0.3","info":{"title":"synthetic","version":"1"},"paths":{`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"/items%d/{id}":{"parameters":[{"name":"id","in":"path","required":true,"schema":{"type":"string","format":"uuid"}}],
		"post":{"operationId":"op%d","summary":"Operation %d","tags":["t%d"],"x-order":%d,
		 "parameters":[{"name":"limit","in":"query","schema":{"type":"integer","minimum":1,"maximum":100,"default":20}},
		  {"name":"X-Trace","in":"header","description":"trace","schema":{"type":"string","maxLength":64}},{"$ref":"#/components/parameters/Page"}],
		 "requestBody":{"required":true,"content":{"application/json":{"schema":{"$ref":"#/components/schemas/Item%d"}}}},
		 "responses":{"200":{"description":"ok","headers":{"X-Rate":{"schema":{"type":"integer"}}},"content":{"application/json":{"schema":{"type":"array","items":{"$ref":"#/components/schemas/Item%d"}},"example":[{"id":"a"}]}}},
		  "404":{"$ref":"#/components/responses/NotFound"},"default":{"description":"error","content":{"application/json":{"schema":{"$ref":"#/components/schemas/Error"}}}}}}}`,
			i, i, i, i%7, i, i, i)
	}
	b.WriteString(`},"components":{"parameters":{"Page":{"name":"page","in":"query","schema":{"type":"integer","minimum":0}}},
	 "responses":{"NotFound":{"description":"not found","content":{"application/json":{"schema":{"$ref":"#/components/schemas/Error"}}}}},
	 "schemas":{"Error":{"type":"object","required":["code","message"],"properties":{"code":{"type":"integer","format":"int32"},"message":{"type":"string"}}}`)
	for i := range n {
		fmt.Fprintf(&b, `,"Item%d":{"type":"object","description":"Item %d","required":["id"],"properties":{
		 "id":{"type":"string","format":"uuid","readOnly":true},"name":{"type":"string","minLength":1,"maxLength":100,"pattern":"^[a-z]+$"},
		 "count":{"type":"integer","minimum":0,"exclusiveMinimum":true,"nullable":true},"tags":{"type":"array","items":{"type":"string"},"uniqueItems":true,"maxItems":10},
		 "kind":{"type":"string","enum":["a","b","c"],"default":"a"},"meta":{"type":"object","additionalProperties":{"type":"string"},"x-meta":{"k":[1,2]}},
		 "child":{"allOf":[{"$ref":"#/components/schemas/Error"},{"description":"child"}]}}}`, i, i)
	}
	b.WriteString(`}}}`)
	return []byte(b.String())
}
