// Command opentoolgen generates a typed Go package from an OpenTool, OpenDyn or
// OpenAPI document: argument and result types, a Service interface with a server
// Tool adapter, a typed client, the embedded OpenTool document and LLM function
// declarations, all on top of github.com/opentoolgen/opentoolgen/runtime.
//
// Usage:
//
//	opentoolgen [flags] DOCUMENT
//
// The kind of DOCUMENT is read from its top-level member ("opentool", "opendyn",
// "openapi" or "swagger"); JSON and YAML are both accepted. From a //go:generate
// line, next to the document:
//
//	//go:generate go run github.com/opentoolgen/opentoolgen/cmd/opentoolgen -o weather weather.json
//
// An OpenDyn document (a C dynamic library's functions with their C types) also
// gives cgo bindings: library.gen.go (Library, Open, Close, one typed method per
// C function, NewTool(lib) serving the library), library_unix.gen.go (dlopen),
// library_windows.gen.go (LoadLibrary) and opendyn.gen.h (each function's C
// prototype and a trampoline that calls it). The library is opened at run time:
// nothing links against it. Building the bindings needs cgo; without cgo the
// package builds without them (types, client, document).
//
// The flags are:
//
//	-o DIR
//		Write the generated files into DIR (default "."), creating it if needed.
//		Only the generated files are written; other files in DIR are left alone,
//		but for files an earlier run generated from the same document (a .gen.
//		name and the same generated header) that this run no longer produces:
//		they are removed (-check reports them).
//	-pkg NAME
//		Name of the generated package (default: derived from DIR's base name).
//	-check
//		Write nothing; exit 1 and name the files that differ when the generated
//		files on disk are stale (for CI).
//	-document FILE
//		Also write the equivalent OpenTool document as indented JSON to FILE:
//		for OpenDyn and OpenAPI inputs, the description OpenTool clients in any
//		language understand.
//	-version
//		Print the version of opentoolgen and exit.
//
// The command sets a soft memory limit of 64 MiB (debug.SetMemoryLimit) unless
// GOMEMLIMIT or GOGC is set: only documents of several megabytes reach it.
//
// Exit status: 0 on success; 1 when the document has problems (each printed as
// file:line:col: json-path: message, all at once) or -check found stale files;
// 2 on bad usage. Nothing is written when any error occurred.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"unicode"

	"github.com/opentoolgen/opentoolgen/gen"
)

// version is the version of the command.
const version = "0.1.0"

// usageError is bad usage: exit status 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

// staleError is the -check failure: exit status 1.
type staleError struct{ files []string }

func (e *staleError) Error() string {
	return "generated files are stale (run opentoolgen again): " + strings.Join(e.files, ", ")
}

func main() {
	// A soft memory limit: the garbage collector works harder only when the
	// heap nears it, which large documents do while they are parsed. For
	// GitHub's REST API it cuts the peak from ~95 to ~75 MB for ~5% more time;
	// small documents never reach it. GOMEMLIMIT or GOGC in the environment
	// take precedence.
	if os.Getenv("GOMEMLIMIT") == "" && os.Getenv("GOGC") == "" {
		debug.SetMemoryLimit(64 << 20)
	}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is the command; it returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	err := generate(args, stdout, stderr)
	var ue *usageError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ue):
		fmt.Fprintln(stderr, "opentoolgen:", err)
		fmt.Fprintln(stderr, "usage: opentoolgen [-o DIR] [-pkg NAME] [-check] [-document FILE] DOCUMENT")
		return 2
	default:
		var ge *gen.Error
		if errors.As(err, &ge) {
			fmt.Fprintln(stderr, err)
		} else {
			fmt.Fprintln(stderr, "opentoolgen:", err)
		}
		return 1
	}
}

type options struct {
	out      string
	pkg      string
	check    bool
	document string
	version  bool
	input    string
}

func parseFlags(args []string, stderr io.Writer) (*options, error) {
	o := &options{}
	fs := flag.NewFlagSet("opentoolgen", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&o.out, "o", ".", "output directory")
	fs.StringVar(&o.pkg, "pkg", "", "package name (default: from the output directory)")
	fs.BoolVar(&o.check, "check", false, "report stale generated files; write nothing")
	fs.StringVar(&o.document, "document", "", "also write the equivalent OpenTool document to this file")
	fs.BoolVar(&o.version, "version", false, "print the version and exit")
	if err := fs.Parse(args); err != nil {
		return nil, &usageError{err.Error()}
	}
	if o.version {
		return o, nil
	}
	if fs.NArg() != 1 {
		return nil, &usageError{fmt.Sprintf("want one DOCUMENT argument, got %d", fs.NArg())}
	}
	o.input = fs.Arg(0)
	if o.pkg == "" {
		abs, err := filepath.Abs(o.out)
		if err != nil {
			return nil, err
		}
		o.pkg = packageName(filepath.Base(abs))
	}
	if !token.IsIdentifier(o.pkg) || o.pkg == "_" {
		return nil, &usageError{fmt.Sprintf("-pkg: got %q, want a Go package name", o.pkg)}
	}
	return o, nil
}

// packageName derives a package name from a directory name: lower case letters
// and digits only ("my-tool" → "mytool"), not starting with a digit, not a
// keyword ("2fa" → "tool2fa", "type" → "tooltype").
func packageName(dir string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(dir) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	name := b.String()
	if name == "" || unicode.IsDigit([]rune(name)[0]) || token.IsKeyword(name) {
		name = "tool" + name
	}
	return name
}

func generate(args []string, stdout, stderr io.Writer) error {
	o, err := parseFlags(args, stderr)
	if err != nil {
		return err
	}
	if o.version {
		fmt.Fprintln(stdout, "opentoolgen", version)
		return nil
	}
	data, err := os.ReadFile(o.input)
	if err != nil {
		return err
	}
	res, err := gen.Generate(o.input, data, gen.Options{Package: o.pkg})
	if err != nil {
		var fe *gen.FormatError
		if errors.As(err, &fe) && !o.check { // -check writes nothing
			dump := filepath.Join(o.out, fe.File+".dump")
			if werr := os.WriteFile(dump, fe.Source, 0o644); werr == nil {
				return fmt.Errorf("%w (unformatted source in %s)", err, dump)
			}
		}
		return err
	}
	for _, w := range res.Warnings {
		fmt.Fprintln(stderr, w)
	}
	want := map[string][]byte{}
	var names []string
	for _, f := range res.Files {
		p := filepath.Join(o.out, f.Name)
		want[p] = f.Content
		names = append(names, p)
	}
	if o.document != "" {
		want[o.document] = res.Document
		names = append(names, o.document)
	}
	leftover := leftovers(o.out, want, header(res.Files))
	if o.check {
		var stale []string
		for _, p := range names {
			got, err := os.ReadFile(p)
			if err != nil || !bytes.Equal(got, want[p]) {
				stale = append(stale, p)
			}
		}
		stale = append(stale, leftover...) // to be removed
		if len(stale) > 0 {
			return &staleError{stale}
		}
		return nil
	}
	if err := os.MkdirAll(o.out, 0o755); err != nil {
		return err
	}
	for _, p := range names {
		if err := writeFile(p, want[p]); err != nil {
			return err
		}
	}
	for _, p := range leftover {
		if err := os.Remove(p); err != nil {
			return err
		}
	}
	return nil
}

// header returns the first two lines of the generated files ("// Code
// generated by opentoolgen. DO NOT EDIT." and "// Source: <document>"), or nil.
func header(files []gen.File) []byte {
	if len(files) == 0 {
		return nil
	}
	c := files[0].Content
	first := bytes.IndexByte(c, '\n')
	if first < 0 {
		return nil
	}
	second := bytes.IndexByte(c[first+1:], '\n')
	if second < 0 || !bytes.HasPrefix(c, []byte("// Code generated by opentoolgen. DO NOT EDIT.\n")) {
		return nil
	}
	return c[:first+1+second+1]
}

// leftovers returns the files of dir that an earlier run of opentoolgen wrote
// from the same document (a .gen. name and the same two header lines as this
// run's files) and that this run no longer writes, such as types3.gen.go after
// the document lost types: they would no longer compile with the new files.
// Nothing else in dir is ever touched.
func leftovers(dir string, want map[string][]byte, generatedHeader []byte) []string {
	if generatedHeader == nil {
		return nil
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		if _, ok := want[p]; ok || !e.Type().IsRegular() || !strings.Contains(e.Name(), ".gen.") {
			continue
		}
		f, err := os.Open(p)
		if err != nil {
			continue
		}
		head := make([]byte, len(generatedHeader))
		n, _ := io.ReadFull(f, head)
		f.Close()
		if bytes.Equal(head[:n], generatedHeader) {
			out = append(out, p)
		}
	}
	return out
}

// writeFile writes data to path through a temporary file and a rename, so that
// a reader never sees half a file; an unchanged file is not touched.
func writeFile(path string, data []byte) error {
	if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, data) {
		return nil
	}
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".opentoolgen-*")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), path)
}
