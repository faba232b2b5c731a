package gen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// declared returns the top-level names the Go files declare, sorted.
func declared(t *testing.T, files []File) []string {
	t.Helper()
	var names []string
	fset := token.NewFileSet()
	for _, f := range files {
		if len(f.Name) < 3 || f.Name[len(f.Name)-3:] != ".go" {
			continue
		}
		af, err := parser.ParseFile(fset, f.Name, f.Content, 0)
		if err != nil {
			t.Fatalf("%s: %v", f.Name, err)
		}
		for _, d := range af.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				name := d.Name.Name
				if d.Recv != nil {
					name = recvName(d.Recv.List[0].Type) + "." + name
				}
				names = append(names, name)
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						names = append(names, s.Name.Name)
					case *ast.ValueSpec:
						for _, n := range s.Names {
							if n.Name != "_" {
								names = append(names, n.Name)
							}
						}
					}
				}
			}
		}
	}
	sort.Strings(names)
	return names
}

func recvName(e ast.Expr) string {
	if s, ok := e.(*ast.StarExpr); ok {
		e = s.X
	}
	if id, ok := e.(*ast.Ident); ok {
		return id.Name
	}
	return "?"
}

// TestTypesSplit checks that a document with more types than a file holds is
// split over types.gen.go, types2.gen.go, … declaring exactly what one file
// would, each name once.
func TestTypesSplit(t *testing.T) {
	data := synthDocument(30)
	whole, err := Generate("synth.json", data, Options{Package: "synth"})
	if err != nil {
		t.Fatal(err)
	}
	split, err := Generate("synth.json", data, Options{Package: "synth", Split: Split{Types: 16}})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range split.Files {
		names = append(names, f.Name)
	}
	for _, want := range []string{"types.gen.go", "types2.gen.go", "types3.gen.go"} {
		if !slices.Contains(names, want) {
			t.Errorf("files %v: missing %s", names, want)
		}
	}
	a, b := declared(t, whole.Files), declared(t, split.Files)
	if !slices.Equal(a, b) {
		t.Errorf("split files declare %d names, one file %d", len(b), len(a))
	}
	if c := slices.Compact(slices.Clone(b)); len(c) != len(b) {
		t.Errorf("split files declare a name twice")
	}
}

// TestFunctionsSplit checks that the methods of a document's functions are
// split over tool.gen.go, tool2.gen.go, … and client.gen.go, client2.gen.go,
// … at most Split.Functions functions a file, declaring exactly what one
// file would, each name once: for an OpenTool document (the typed OpenTool
// client) and an OpenAPI one (the REST client, with paging methods).
func TestFunctionsSplit(t *testing.T) {
	for _, c := range []struct{ name, file string }{
		{"opentool", "../testdata/golden/mocktool/mock_tool.json"},
		{"openapi", "../testdata/golden/openapi-paging/paging.yaml"},
	} {
		t.Run(c.name, func(t *testing.T) {
			data, err := os.ReadFile(c.file)
			if err != nil {
				t.Fatal(err)
			}
			whole, err := Generate(filepath.Base(c.file), data, Options{Package: "p"})
			if err != nil {
				t.Fatal(err)
			}
			split, err := Generate(filepath.Base(c.file), data, Options{Package: "p", Split: Split{Functions: 2}})
			if err != nil {
				t.Fatal(err)
			}
			if len(whole.Files) >= len(split.Files) {
				t.Fatalf("%d files split, %d whole", len(split.Files), len(whole.Files))
			}
			var tools, clients int
			for _, f := range split.Files {
				if strings.HasPrefix(f.Name, "tool") {
					tools++
				}
				if strings.HasPrefix(f.Name, "client") {
					clients++
				}
				// Past the first file of a family, a file holds the methods of
				// two functions at most: no more than two tool methods
				// (plus a paging gatherer each), two client methods (plus
				// an iterator or paging form each).
				if f.Name != "tool.gen.go" && f.Name != "client.gen.go" && (strings.HasPrefix(f.Name, "tool") || strings.HasPrefix(f.Name, "client")) {
					// and the parts of Call's and HeaderParameters' switches
					// of a tool file.
					if n := bytes.Count(f.Content, []byte("\nfunc (")); n == 0 || n > 6 {
						t.Errorf("%s: %d methods, want 1 to 6", f.Name, n)
					}
				}
			}
			// Each function that returns once has one case in Call's
			// switches, which pass a name on from tool.gen.go to tool2.gen.go
			// …; the last answers that the function is not found.
			var all []byte
			for _, f := range split.Files {
				if strings.HasPrefix(f.Name, "tool") {
					all = append(all, f.Content...)
					last := f.Name == "tool"+strconv.Itoa(tools)+".gen.go"
					if got := bytes.Contains(f.Content, []byte("return nil, runtime.MethodNotFound(name)\n}")); got != last {
						t.Errorf("%s: ends its switch with MethodNotFound: %v, want %v", f.Name, got, last)
					}
				}
			}
			var doc struct {
				Functions []struct {
					Name   string
					Stream json.RawMessage
				}
			}
			if err := json.Unmarshal(whole.Document, &doc); err != nil {
				t.Fatal(err)
			}
			for _, fn := range doc.Functions {
				want := 1
				if fn.Stream != nil {
					want = 0 // StreamCall's
				}
				// return t.callF(ctx, args), or decode.CallObject(…) and the like
				re := regexp.MustCompile(`case ` + regexp.QuoteMeta(strconv.Quote(fn.Name)) + `:\n\t\treturn (t\.call|decode\.Call)`)
				if n := len(re.FindAll(all, -1)); n != want {
					t.Errorf("function %s: %d cases in Call's switches, want %d", fn.Name, n, want)
				}
			}
			if tools < 3 || clients < 3 {
				t.Errorf("%d tool files, %d client files: want 3 at least", tools, clients)
			}
			// The split files declare what the whole ones do, and the parts
			// of Service and Call: service2, Tool.call2, … one each, and of
			// HeaderParameters (Tool.headerParameters2, …) when a function
			// has header parameters, each in one of its parts.
			a, b := declared(t, whole.Files), declared(t, split.Files)
			if c := slices.Compact(slices.Clone(b)); len(c) != len(b) {
				t.Errorf("split files declare a name twice")
			}
			headers := slices.Contains(a, "Tool.HeaderParameters")
			var parts []string
			for i := 2; i <= tools; i++ {
				parts = append(parts, "Tool.call"+strconv.Itoa(i), "service"+strconv.Itoa(i))
				if headers {
					parts = append(parts, "Tool.headerParameters"+strconv.Itoa(i))
				}
			}
			if headers {
				var src []byte
				for _, f := range whole.Files {
					src = append(src, f.Content...)
				}
				// Each case of the whole switch, "case "createCharge":\n\t\treturn map…",
				// is in the split files once.
				cases := regexp.MustCompile(`\tcase "[^"]*":\n\t\treturn map\[string\]string\{[^\n]*\}\n`).FindAll(src, -1)
				if len(cases) == 0 {
					t.Error("no case in HeaderParameters")
				}
				for _, c := range cases {
					if n := bytes.Count(all, c); n != 1 {
						t.Errorf("%q: %d times in the split tool files, want 1", c, n)
					}
				}
			}
			b = slices.DeleteFunc(b, func(name string) bool { return slices.Contains(parts, name) })
			if !slices.Equal(a, b) || len(declared(t, split.Files)) != len(a)+len(parts) {
				t.Errorf("split files declare %d names and %d parts, whole files %d", len(b), len(parts), len(a))
			}
		})
	}
}

// weightedDocument is an OpenAPI document of a few very large types (big
// structs of described fields, a long enum, a union of many variants) among
// many small ones, all arguments of one operation (so that each has a
// decoder) or its result.
func weightedDocument(big, small int) []byte {
	type obj = map[string]any
	schemas, args := obj{}, obj{}
	for i := range big {
		props := obj{}
		for j := range 250 {
			props[fmt.Sprintf("field%03d", j)] = obj{"type": "string", "maxLength": 40, "description": fmt.Sprintf("Field %d of big %d.\nIt says so on two lines.", j, i)}
		}
		name := fmt.Sprintf("Big%d", i)
		schemas[name] = obj{"type": "object", "properties": props}
		args[strings.ToLower(name)] = obj{"$ref": "#/components/schemas/" + name}
	}
	var values, variants []any
	for j := range 300 {
		values = append(values, fmt.Sprintf("value-%d", j))
	}
	for j := range 40 {
		variants = append(variants, obj{"$ref": fmt.Sprintf("#/components/schemas/Small%d", j)})
	}
	schemas["Long"] = obj{"type": "string", "enum": values}
	schemas["Either"] = obj{"oneOf": variants}
	args["long"], args["either"] = obj{"$ref": "#/components/schemas/Long"}, obj{"$ref": "#/components/schemas/Either"}
	result := obj{}
	for i := range small {
		name := fmt.Sprintf("Small%d", i)
		schemas[name] = obj{"type": "object", "required": []string{"id"}, "properties": obj{"id": obj{"type": "integer"}, "name": obj{"type": "string"}}}
		if i%2 == 0 {
			args[strings.ToLower(name)] = obj{"$ref": "#/components/schemas/" + name}
		} else {
			result[strings.ToLower(name)] = obj{"$ref": "#/components/schemas/" + name}
		}
	}
	doc := obj{"openapi": "3.0.3", "info": obj{"title": "weighted", "version": "1"},
		"paths": obj{"/things": obj{"post": obj{"operationId": "putThings",
			"requestBody": obj{"content": obj{"application/json": obj{"schema": obj{"type": "object", "properties": args}}}},
			"responses":   obj{"200": obj{"description": "ok", "content": obj{"application/json": obj{"schema": obj{"type": "object", "properties": result}}}}}}}},
		"components": obj{"schemas": schemas}}
	data, err := json.Marshal(doc)
	if err != nil {
		panic(err)
	}
	return data
}

// TestTypesSplitWeighted checks that Split.Types bounds the lines of the
// types files, weighing each type by its size: on a document of a few very
// large types among many small ones, each types file is within a fifth of
// the bound (or holds one type larger than it), the files are about even,
// as few as the bound allows, and they declare what one file would.
func TestTypesSplitWeighted(t *testing.T) {
	data := weightedDocument(6, 400)
	whole, err := Generate("weighted.json", data, Options{Package: "w", Split: Split{Types: NoSplit}})
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, f := range whole.Files {
		if f.Name == "types.gen.go" {
			total = bytes.Count(f.Content, []byte("\n"))
		}
	}
	const bound = 1500
	split, err := Generate("weighted.json", data, Options{Package: "w", Split: Split{Types: bound}})
	if err != nil {
		t.Fatal(err)
	}
	var sizes, shared []int // the lines of every types file, of those of more than one type
	for _, f := range split.Files {
		if !strings.HasPrefix(f.Name, "types") {
			continue
		}
		lines := bytes.Count(f.Content, []byte("\n"))
		sizes = append(sizes, lines)
		if bytes.Count(f.Content, []byte("\ntype ")) == 1 {
			continue // one type, larger than the bound: it may be
		}
		shared = append(shared, lines)
		if lines > bound*11/10 {
			t.Errorf("%s: %d lines, bound %d", f.Name, lines, bound)
		}
	}
	// Even: the files of many types are within a fourth of each other but
	// one (the rest); few: no more than the lines need, and no two
	// neighbours that one file of the bound could hold.
	short := 0
	for _, n := range shared {
		if n < slices.Max(shared)*3/4 {
			short++
		}
	}
	if short > 1 {
		t.Errorf("types files of many types of %v lines: uneven", shared)
	}
	if most := (total + bound - 1) / bound; len(sizes) > most {
		t.Errorf("%d types files of %v lines for %d lines in one, want %d at most", len(sizes), sizes, total, most)
	}
	for i := 1; i < len(sizes); i++ {
		if sizes[i-1]+sizes[i] <= bound {
			t.Errorf("types files of %v lines: files %d and %d fit in one", sizes, i, i+1)
		}
	}
	if a, b := declared(t, whole.Files), declared(t, split.Files); !slices.Equal(a, b) {
		t.Errorf("split files declare %d names, one file %d", len(b), len(a))
	}

	// A type larger than the bound has a file of its own.
	split, err = Generate("weighted.json", data, Options{Package: "w", Split: Split{Types: 300}})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range split.Files {
		if bytes.Contains(f.Content, []byte("\ntype Big2 struct {")) {
			if n := bytes.Count(f.Content, []byte("\ntype ")); n != 1 {
				t.Errorf("%s: Big2 with %d other types", f.Name, n-1)
			}
		}
	}
}
