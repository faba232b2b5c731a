package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"go/token"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode"

	"github.com/opentoolgen/opentoolgen/gen"
	"github.com/opentoolgen/opentoolgen/internal/buildinfo"
)

// usageError is bad usage: exit status 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

// staleError is the -check failure: exit status 1.
type staleError struct{ files []string }

func (e *staleError) Error() string {
	return "generated files are stale (run opentoolgen again): " + strings.Join(e.files, ", ")
}

func main() {
	tuneGC() // the garbage collector's pace (gctune.go)
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is the command; it returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	err := generate(args, stdout, stderr)
	var ue *usageError
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp): // asked for: the output, to page or grep
		printHelp(stdout)
		return 0
	case errors.As(err, &ue):
		fmt.Fprintln(stderr, "opentoolgen:", err)
		fmt.Fprintln(stderr, usageLine)
		fmt.Fprintln(stderr, "run 'opentoolgen -h' for the flags")
		return 2
	default:
		var ge *gen.Error
		if errors.As(err, &ge) {
			printDiagnostics(stderr, ge)
		} else {
			fmt.Fprintln(stderr, "opentoolgen:", err)
		}
		return 1
	}
}

// maxExcerpts is how many errors are shown with the lines around them; the
// others are one line each.
const maxExcerpts = 10

// printDiagnostics prints the problems of a document, one line each
// (file:line:col: /json/pointer: message, which editors read), the first
// errors followed by the lines of the document around them with a caret
// under the place.
func printDiagnostics(w io.Writer, e *gen.Error) {
	shown := 0
	for _, d := range e.Diagnostics {
		fmt.Fprintln(w, d)
		if d.Warning || shown == maxExcerpts {
			continue
		}
		if x := e.Excerpt(d); x != "" {
			fmt.Fprint(w, x)
			shown++
		}
	}
}

const usageLine = "usage: opentoolgen [flags] DOCUMENT"

type options struct {
	out          string
	pkg          string
	check        bool
	document     string
	declarations string
	profile      string
	toolSearch   bool
	namespaces   string
	include      []string
	exclude      []string
	allowRefDirs []string
	overlays     []string
	cmd          string
	with         withOptions    // -with: what the -cmd main links besides OpenTool HTTP and MCP
	pack         packageOptions // -package and its options: the files that install the -cmd main
	registration string
	subject      string
	after        string
	cpuProfile   string
	memProfile   string
	// splitTypes and splitFunctions are -split-types and -split-functions:
	// gen.Split's fields, 0 for one file.
	splitTypes, splitFunctions int
	version                    bool
	quiet                      bool
	input                      string
}

// stringList is a repeatable string flag.
type stringList []string

func (l *stringList) String() string     { return strings.Join(*l, ", ") }
func (l *stringList) Set(v string) error { *l = append(*l, v); return nil }

// flagSet returns the command's flags, bound to o.
func flagSet(o *options) *flag.FlagSet {
	fs := flag.NewFlagSet("opentoolgen", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&o.out, "o", ".", "write the generated files into `DIR`, creating it if needed")
	fs.StringVar(&o.pkg, "pkg", "", "`NAME` of the generated package (default: derived from DIR's base name)")
	fs.BoolVar(&o.check, "check", false, "write nothing; exit 1 and name the generated files that are stale (for CI)")
	fs.StringVar(&o.document, "document", "", "also write the equivalent OpenTool document as indented JSON to `FILE`")
	fs.StringVar(&o.declarations, "declarations", "", "also write the functions' declarations for an LLM provider (see -for) to `FILE`: the JSON its API takes in its \"tools\" member")
	fs.Var((*stringList)(&o.include), "include", "generate only the functions `PATTERN` matches (repeatable): a glob over names, tag:GLOB over OpenAPI tags, path:GLOB over paths")
	fs.Var((*stringList)(&o.exclude), "exclude", "leave out the functions `PATTERN` matches (repeatable; same patterns as -include)")
	fs.StringVar(&o.profile, "for", "openai", "the `PROFILE` of -declarations: openai, openai-strict, openai-responses, openai-responses-strict, anthropic, anthropic-strict, gemini, gemini-openapi or mcp")
	fs.BoolVar(&o.toolSearch, "tool-search", false, "declare the functions for the provider's tool search (defer_loading, and the search tool); -for openai-responses* or anthropic*")
	fs.StringVar(&o.namespaces, "namespaces", "none", "group the declared functions in namespaces: `tag` (an OpenAPI operation's first tag) or none; -for openai-responses*")
	fs.Var((*stringList)(&o.allowRefDirs), "allow-ref-dir", "let OpenAPI $refs read files under `DIR` too, besides the document's own directory tree (repeatable)")
	fs.Var((*stringList)(&o.overlays), "overlay", "apply the OpenAPI Overlay document `FILE` (1.0.0 or 1.1.0) to the document before generating (repeatable, applied in order)")
	fs.StringVar(&o.cmd, "cmd", "", "also write into `DIR` a package main that serves the package over OpenTool HTTP and MCP (package toolcli); DIR and -o must be in one module")
	fs.Var(&o.with, "with", "also link into the -cmd main `FRONTS` besides OpenTool HTTP and MCP: nats (the nats and exec commands), otel (OpenTelemetry export), or nats,otel")
	packageFlags(fs, &o.pack)
	fs.StringVar(&o.registration, "registration", "", "also write to `FILE` the functions as tool definitions of the agent platform natsexec serves (YAML for POST /projects/{project_id}/tools)")
	fs.StringVar(&o.subject, "subject", gen.DefaultSubject, "the target_subject `TEMPLATE` of -registration: a cmd.tool.* subject; {function} is each function's name")
	fs.StringVar(&o.after, "after-execution", "suspend", "the after_execution of -registration: `suspend` or terminate")
	fs.IntVar(&o.splitTypes, "split-types", gen.DefaultTypesLines, "spread the types over files of about `LINES` lines each (types.gen.go, types2.gen.go, …); 0 keeps them in one file")
	fs.IntVar(&o.splitFunctions, "split-functions", gen.DefaultFunctionsPerFile, "put the methods of at most `N` functions in each tool and client file (tool.gen.go, tool2.gen.go, …); 0 keeps them in one file each")
	fs.StringVar(&o.cpuProfile, "cpuprofile", "", "write a CPU profile of the run to `FILE`")
	fs.StringVar(&o.memProfile, "memprofile", "", "write the profile of the run's allocations to `FILE` when it ends")
	fs.BoolVar(&o.quiet, "q", false, "print no warnings (errors are still printed)")
	fs.BoolVar(&o.version, "version", false, "print the version of opentoolgen and exit")
	return fs
}

func parseFlags(args []string, stderr io.Writer) (*options, error) {
	o := &options{}
	fs := flagSet(o)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, err
		}
		msg := err.Error()
		if name, ok := strings.CutPrefix(msg, "flag provided but not defined: -"); ok {
			if near := nearestFlag(fs, name); near != "" {
				msg += " (did you mean -" + near + "?)"
			}
		}
		return nil, &usageError{msg}
	}
	if o.version {
		return o, nil
	}
	if fs.NArg() > 1 {
		// The flag package stops at the first argument that is not a flag.
		for _, a := range fs.Args()[1:] {
			if strings.HasPrefix(a, "-") && len(a) > 1 {
				return nil, &usageError{fmt.Sprintf("flags go before the document: got %q after %s (opentoolgen [flags] DOCUMENT)", a, fs.Arg(0))}
			}
		}
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
	if o.cmd == "" && (o.with.nats || o.with.otel) {
		return nil, &usageError{"-with " + o.with.String() + " needs -cmd DIR: it says what the generated main links"}
	}
	if err := checkPackageFlags(fs, o); err != nil {
		return nil, err
	}
	if o.registration == "" {
		var only []string
		fs.Visit(func(f *flag.Flag) {
			if f.Name == "subject" || f.Name == "after-execution" {
				only = append(only, "-"+f.Name)
			}
		})
		if len(only) > 0 {
			verb := " needs"
			if len(only) > 1 {
				verb = " need"
			}
			return nil, &usageError{strings.Join(only, " and ") + verb + " -registration FILE"}
		}
	} else {
		r := gen.Registration{Subject: o.subject, AfterExecution: o.after}
		var re *gen.RegistrationError
		if err := r.Check(); errors.As(err, &re) {
			flagName := map[string]string{"subject": "-subject", "after_execution": "-after-execution"}[re.Field]
			return nil, &usageError{flagName + ": " + re.Message}
		}
	}
	if _, err := gen.ParseProfile(o.profile); err != nil {
		return nil, &usageError{"-for: " + strings.TrimPrefix(err.Error(), "opentool: ")}
	}
	if err := checkSearchFlags(o); err != nil {
		return nil, err
	}
	if o.splitTypes < 0 || o.splitFunctions < 0 {
		name, n := "-split-types", o.splitTypes
		if o.splitFunctions < 0 {
			name, n = "-split-functions", o.splitFunctions
		}
		return nil, &usageError{fmt.Sprintf("%s: got %d, want a number of lines or functions, or 0 for one file", name, n)}
	}
	if !token.IsIdentifier(o.pkg) || o.pkg == "_" {
		return nil, &usageError{fmt.Sprintf("-pkg: got %q, want a Go package name", o.pkg)}
	}
	return o, nil
}

// splitBound is the field of gen.Split for the value n of a -split flag: 0
// keeps the files whole.
func splitBound(n int) int {
	if n == 0 {
		return gen.NoSplit
	}
	return n
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

func generate(args []string, stdout, stderr io.Writer) (err error) {
	o, err := parseFlags(args, stderr)
	if err != nil {
		return err
	}
	if o.version {
		fmt.Fprintln(stdout, versionLine())
		return nil
	}
	stop, err := startProfiles(o.cpuProfile, o.memProfile)
	if err != nil {
		return err
	}
	defer func() {
		if perr := stop(); perr != nil && err == nil {
			err = perr
		}
	}()
	data, err := readDocument(o.input)
	if err != nil {
		return err
	}
	gopts, err := generateOptions(o)
	if err != nil {
		return err
	}
	for _, p := range o.overlays {
		ov, err := readDocument(p)
		if err != nil {
			return fmt.Errorf("-overlay: %w", err)
		}
		gopts.Overlays = append(gopts.Overlays, gen.Overlay{Name: p, Data: ov})
	}
	res, err := runGenerator(o, data, gopts, stderr)
	if err != nil {
		return err
	}
	want, names := outputs(o, res)
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
	// Every file is written to a temporary file beside it first; only when all
	// of them are written are they renamed into place, so that an output that
	// cannot be written leaves everything as it was.
	w := &writer{}
	defer w.abort()
	if err := w.mkdirAll(o.out, o.out); err != nil {
		return err
	}
	for _, p := range names {
		given := p
		switch p {
		case o.document:
			given = "-document " + p
		case o.declarations:
			given = "-declarations " + p
		case o.registration:
			given = "-registration " + p
		}
		if err := w.stage(p, given, want[p]); err != nil {
			return err
		}
	}
	if err := w.commit(); err != nil {
		return err
	}
	for _, p := range leftover {
		if err := os.Remove(p); err != nil {
			return err
		}
	}
	files := res.Files
	if res.Command != nil {
		files = append(files[:len(files):len(files)], *res.Command)
	}
	// The files are written: a go.mod that cannot be read only costs the hint.
	if next, err := nextCommand(o.out, files); err == nil && next != "" {
		fmt.Fprintf(stderr, "opentoolgen: go.mod lacks modules the generated code needs; next, run:\n\t%s\n", next)
	}
	return nil
}

// generateOptions are the generator's options the flags ask for.
func generateOptions(o *options) (gen.Options, error) {
	gopts := gen.Options{Package: o.pkg, AllowRefDirs: o.allowRefDirs, Include: o.include, Exclude: o.exclude,
		Split: gen.Split{Types: splitBound(o.splitTypes), Functions: splitBound(o.splitFunctions)}}
	if o.declarations != "" {
		gopts.Declarations = gen.Profile(o.profile)
		gopts.ToolSearch, gopts.Namespaces = o.toolSearch, o.namespaces
	}
	if o.registration != "" {
		gopts.Registration = &gen.Registration{Subject: o.subject, AfterExecution: o.after}
	}
	if o.cmd != "" {
		var err error
		if gopts.Command, err = commandOptions(o.out, o.cmd); err != nil {
			return gen.Options{}, err
		}
		gopts.Command.NATS, gopts.Command.OTel = o.with.nats, o.with.otel
		if o.pack.set {
			gopts.Packaging = &o.pack.p
		}
	}
	return gopts, nil
}

// runGenerator generates the package from data, writing the dump of
// unformatted source beside the output when it does not format, and prints
// a note of a document loaded the slower way and the warnings (unless -q).
func runGenerator(o *options, data []byte, gopts gen.Options, stderr io.Writer) (*gen.Result, error) {
	var slowDoc, slowWhy string // the first document loaded the slower way
	gopts.SlowLoad = func(doc, reason string) {
		if slowDoc == "" {
			slowDoc, slowWhy = doc, reason
		}
	}
	res, err := gen.Generate(o.input, data, gopts)
	if err != nil {
		var fe *gen.FormatError
		if errors.As(err, &fe) && !o.check { // -check writes nothing
			dump := filepath.Join(o.out, fe.File+".dump")
			if werr := os.WriteFile(dump, fe.Source, 0o644); werr == nil {
				return nil, fmt.Errorf("%w (unformatted source in %s)", err, dump)
			}
		}
		return nil, err
	}
	if !o.quiet && slowDoc != "" {
		fmt.Fprintf(stderr, "note: %s was loaded the slower way (%s)\n", slowDoc, slowWhy) //nolint:errcheck // to stderr
	}
	if !o.quiet {
		gen.WriteWarnings(stderr, res.Warnings) //nolint:errcheck // as fmt.Fprintln's to stderr
	}
	return res, nil
}

// outputs are the files the result is written to, by path, and their paths
// in the order they are written.
func outputs(o *options, res *gen.Result) (map[string][]byte, []string) {
	want := map[string][]byte{}
	var names []string
	for _, f := range res.Files {
		p := filepath.Join(o.out, f.Name)
		want[p] = f.Content
		names = append(names, p)
	}
	if _, embedded := want[o.document]; o.document != "" && !embedded { // the same bytes when it is the embedded file
		want[o.document] = res.Document
		names = append(names, o.document)
	}
	if o.declarations != "" {
		want[o.declarations] = res.Declarations
		names = append(names, o.declarations)
	}
	if o.registration != "" {
		want[o.registration] = res.Registration
		names = append(names, o.registration)
	}
	if res.Command != nil {
		p := filepath.Join(o.cmd, res.Command.Name)
		want[p] = res.Command.Content
		names = append(names, p)
	}
	for _, f := range res.Packaging {
		p := filepath.Join(o.cmd, f.Name)
		want[p] = f.Content
		names = append(names, p)
	}
	return want, names
}

// readDocument reads the document at path, refusing one larger than
// gen.MaxFileBytes before reading it whole.
func readDocument(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, gen.MaxFileBytes+1))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	if len(data) > gen.MaxFileBytes {
		return nil, fmt.Errorf("%s: larger than %d MiB, the largest document opentoolgen reads", path, gen.MaxFileBytes>>20)
	}
	return data, nil
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

// writer writes a set of files all or nothing (as far as a file system lets
// it): stage writes each to a temporary file beside its place, commit renames
// them all into place, abort removes what stage made. A reader never sees half
// a file, and an unchanged file is not touched.
type writer struct {
	staged []stagedFile
	dirs   []string // directories stage created, deepest last
	done   bool
}

type stagedFile struct{ tmp, path, given string }

// mkdirAll creates dir and its missing parents, remembering them for abort;
// errors name given, the path as the user wrote it.
func (w *writer) mkdirAll(dir, given string) error {
	var missing []string
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		if _, err := os.Lstat(d); err == nil {
			break
		}
		missing = append(missing, d)
		if filepath.Dir(d) == d {
			break
		}
	}
	for i := len(missing) - 1; i >= 0; i-- {
		if err := os.Mkdir(missing[i], 0o755); err != nil && !os.IsExist(err) {
			return fmt.Errorf("cannot create %s: %w", given, pathless(err))
		}
		w.dirs = append(w.dirs, missing[i])
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return fmt.Errorf("cannot create %s: %s is not a directory", given, dir)
	}
	return nil
}

// stage writes data to a temporary file beside path, unless path holds data
// already.
func (w *writer) stage(path, given string, data []byte) error {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return fmt.Errorf("cannot write %s: it is a directory", given)
	}
	if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, data) {
		return nil
	}
	if err := w.mkdirAll(filepath.Dir(path), given); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".opentoolgen-*")
	if err != nil {
		return fmt.Errorf("cannot write %s: %w", given, pathless(err))
	}
	w.staged = append(w.staged, stagedFile{tmp: tmp.Name(), path: path, given: given})
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o644)
	}
	if err != nil {
		return fmt.Errorf("cannot write %s: %w", given, pathless(err))
	}
	return nil
}

// commit renames the staged files into place.
func (w *writer) commit() error {
	for i, f := range w.staged {
		if err := os.Rename(f.tmp, f.path); err != nil {
			w.staged = w.staged[i:]
			return fmt.Errorf("cannot write %s: %w", f.given, pathless(err))
		}
	}
	w.staged, w.dirs, w.done = nil, nil, true
	return nil
}

// abort removes the temporary files and the directories stage made, unless
// commit succeeded.
func (w *writer) abort() {
	if w.done {
		return
	}
	for _, f := range w.staged {
		os.Remove(f.tmp)
	}
	for i := len(w.dirs) - 1; i >= 0; i-- {
		os.Remove(w.dirs[i]) // only if empty
	}
}

// pathless returns the reason of a *PathError without its path, which may be
// a temporary file's: the caller names the path the user gave.
func pathless(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}

// checkSearchFlags reports -tool-search and -namespaces where the profile
// of -for has no place for them.
func checkSearchFlags(o *options) error {
	responses := o.profile == "openai-responses" || o.profile == "openai-responses-strict"
	switch {
	case o.namespaces != "tag" && o.namespaces != "none":
		return &usageError{fmt.Sprintf("-namespaces: got %q, want tag or none", o.namespaces)}
	case (o.toolSearch || o.namespaces == "tag") && o.declarations == "":
		return &usageError{"-tool-search and -namespaces need -declarations FILE"}
	case o.toolSearch && !responses && !strings.HasPrefix(o.profile, "anthropic"):
		return &usageError{fmt.Sprintf("-tool-search: the %s profile has no tool search (openai-responses, openai-responses-strict, anthropic and anthropic-strict have)", o.profile)}
	case o.namespaces == "tag" && !responses:
		return &usageError{fmt.Sprintf("-namespaces: the %s profile has no namespaces (openai-responses and openai-responses-strict have)", o.profile)}
	}
	return nil
}

// versionLine is what -version prints: the version of this module the
// command was built from, as the go command stamped it ("(devel)" and the
// VCS revision when built from a checkout), and Go's.
func versionLine() string {
	in, ok := buildinfo.Read()
	v := in.OpenToolGen
	if !ok || v == "" {
		v = "(unknown: built without module information)"
	}
	if in.Go != "" {
		v += ", built with " + in.Go
	}
	return "opentoolgen " + v
}

// flagAliases are names a newcomer may give a flag by, from other tools.
var flagAliases = map[string]string{
	"output": "o", "out": "o", "outdir": "o", "dir": "o",
	"quiet": "q", "silent": "q", "v": "version",
}

// nearestFlag returns the flag of fs that name (an unknown flag, without its
// dash) was most likely meant as, or "": the flag or alias at the smallest
// edit distance (a transposition counts one) within a third of name's
// length, else the one flag name is a prefix of.
func nearestFlag(fs *flag.FlagSet, name string) string {
	name = strings.ToLower(strings.TrimLeft(name, "-"))
	if i := strings.IndexByte(name, '='); i >= 0 {
		name = name[:i] // -ouptut=dir
	}
	if name == "" {
		return ""
	}
	best, bestD := "", len(name)/3+1 // within a third of the letters
	consider := func(cand, flagName string) {
		if d := editDistance(name, cand); d < bestD {
			best, bestD = flagName, d
		}
	}
	fs.VisitAll(func(f *flag.Flag) { consider(f.Name, f.Name) })
	for _, a := range slices.Sorted(maps.Keys(flagAliases)) {
		consider(a, flagAliases[a])
	}
	if best != "" {
		return best
	}
	var prefixed []string
	fs.VisitAll(func(f *flag.Flag) {
		if len(name) >= 2 && strings.HasPrefix(f.Name, name) {
			prefixed = append(prefixed, f.Name)
		}
	})
	if len(prefixed) == 1 {
		return prefixed[0]
	}
	return ""
}

// editDistance is the optimal string alignment distance of a and b: the
// insertions, deletions, substitutions and transpositions of adjacent
// letters that make one the other.
func editDistance(a, b string) int {
	x, y := []rune(a), []rune(b)
	d := make([][]int, len(x)+1)
	for i := range d {
		d[i] = make([]int, len(y)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(x); i++ {
		for j := 1; j <= len(y); j++ {
			cost := 1
			if x[i-1] == y[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && x[i-1] == y[j-2] && x[i-2] == y[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(x)][len(y)]
}
