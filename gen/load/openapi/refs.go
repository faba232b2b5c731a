package openapi

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/opentoolgen/opentoolgen/gen/source"
	"github.com/opentoolgen/opentoolgen/internal/jsontree"
)

// refFiles reads the files that an OpenAPI document's $refs name. It reads
// only regular files of at most limit bytes inside the directory tree of the
// main document or of an allowed directory, after resolving ".." and symbolic
// links: a $ref cannot make the generator read /etc/passwd into a comment, or
// hang on /dev/stdin.
type refFiles struct {
	doc   string   // the main document's name, as given to Generate
	allow []string // Options.AllowRefDirs, as given
	limit int64    // the largest file read (source.FileLimit)
	dirs  []string // the trees, absolute with symbolic links resolved: the document's first
}

// realDir returns dir absolute, with symbolic links resolved when it exists.
func realDir(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return filepath.Clean(dir)
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		return real
	}
	return abs
}

// trees returns the directories references may read from.
func (r *refFiles) trees() []string {
	if r.dirs == nil {
		r.dirs = append(r.dirs, realDir(filepath.Dir(r.doc)))
		for _, d := range r.allow {
			if d != "" {
				r.dirs = append(r.dirs, realDir(d))
			}
		}
	}
	return r.dirs
}

// within returns the tree that holds p (absolute, clean) and p relative to it;
// "" when none does.
func (r *refFiles) within(p string) (dir, rel string) {
	for _, d := range r.trees() {
		rel, err := filepath.Rel(d, p)
		if err != nil || filepath.IsAbs(rel) || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			continue
		}
		return d, rel
	}
	return "", ""
}

// outside is the reason for refusing a file outside the trees.
func (r *refFiles) outside() string {
	dirs := r.trees()
	msg := "outside the document's directory tree " + dirs[0]
	if len(dirs) > 1 {
		msg += " and the allowed directories " + strings.Join(dirs[1:], ", ")
	}
	return msg + "; allow it with -allow-ref-dir"
}

// read reads the file name (a path of the operating system). Its errors say
// why a file is refused and never quote what it holds.
func (r *refFiles) read(name string) ([]byte, error) {
	abs, err := filepath.Abs(name)
	if err != nil {
		return nil, errors.New("cannot resolve the path")
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		// Whether a file outside the trees exists is none of the document's business.
		if dir, _ := r.within(abs); dir == "" {
			return nil, errors.New(r.outside())
		}
		if errors.Is(err, fs.ErrNotExist) {
			return nil, errors.New("no such file")
		}
		return nil, errors.New("cannot resolve the path")
	}
	dir, rel := r.within(real)
	if dir == "" {
		return nil, errors.New(r.outside())
	}
	// Look before opening: opening a named pipe waits for a writer.
	fi, err := os.Stat(real)
	if err != nil {
		return nil, errors.New("cannot read the file")
	}
	if err := r.regular(fi); err != nil {
		return nil, err
	}
	// Open it inside its tree (a symbolic link swapped in meanwhile cannot
	// lead out of it), without waiting, and check what was opened.
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, errors.New("cannot read the file")
	}
	defer root.Close()
	f, err := root.OpenFile(rel, openFlags, 0)
	if err != nil {
		return nil, errors.New("cannot read the file")
	}
	defer f.Close()
	if fi, err = f.Stat(); err != nil {
		return nil, errors.New("cannot read the file")
	}
	if err := r.regular(fi); err != nil {
		return nil, err
	}
	data, err := io.ReadAll(io.LimitReader(f, r.limit+1))
	if err != nil {
		return nil, errors.New("cannot read the file")
	}
	if int64(len(data)) > r.limit {
		return nil, r.tooLarge()
	}
	return data, nil
}

// tooLarge is the error of a file over the limit.
func (r *refFiles) tooLarge() error { return errors.New("larger than " + source.SizeText(r.limit)) }

// regular refuses what is not a regular file, or is too large.
func (r *refFiles) regular(fi fs.FileInfo) error {
	m := fi.Mode()
	if !m.IsRegular() {
		what := "a special file"
		switch {
		case m.IsDir():
			what = "a directory"
		case m&fs.ModeNamedPipe != 0:
			what = "a named pipe"
		case m&fs.ModeSocket != 0:
			what = "a socket"
		case m&fs.ModeDevice != 0:
			what = "a device"
		}
		return errors.New("not a regular file (" + what + ")")
	}
	if fi.Size() > r.limit {
		return r.tooLarge()
	}
	return nil
}

// refusal is a file a reference names that was not read.
// replacedRef is a $ref at ptr in file (a slash path, as b.root) that the
// checker replaced.
type replacedRef struct {
	file, ptr string
	ref       *jsontree.Node
}

type refusal struct {
	key    string // refTarget's form of its location
	uri    string // as the loader asked for it
	reason string
}

// refuse records that the file at u was not read, and why.
func (b *oaBuilder) refuse(u *url.URL, reason string) error {
	key := refURLKey(u)
	for _, r := range b.refused {
		if r.key == key {
			return errors.New(r.uri + ": " + r.reason)
		}
	}
	c := *u
	c.Fragment, c.RawFragment = "", ""
	r := refusal{key: key, uri: c.Redacted(), reason: reason}
	b.refused = append(b.refused, r)
	return errors.New(r.uri + ": " + r.reason)
}

// isFileURL reports whether a reference names a local file, as kin-openapi
// tells them.
func isFileURL(u *url.URL) bool {
	return u.Path != "" && u.Host == "" && (u.Scheme == "" || u.Scheme == "file")
}

// refURLKey is the location of the file at u: a clean slash path, or the URL
// without its fragment.
func refURLKey(u *url.URL) string {
	if isFileURL(u) {
		return path.Clean(u.Path)
	}
	c := *u
	c.Fragment, c.RawFragment = "", ""
	return c.String()
}

// refTarget returns the location (as refURLKey gives it) of the file the
// reference ref names in the file file, as kin-openapi resolves it; "" for a
// reference inside the same file.
func refTarget(file, ref string) string {
	u, err := url.Parse(ref)
	if err != nil {
		return ""
	}
	if isFileURL(u) {
		p := u.Path
		if !filepath.IsAbs(p) && !path.IsAbs(p) {
			p = path.Join(path.Dir(file), p)
		}
		return path.Clean(p)
	}
	if u.Scheme == "" && u.Host == "" && u.Opaque == "" {
		return ""
	}
	return refURLKey(u)
}

// refusedDiagnostics reports the refused files at the $refs that name them,
// in the document and in the files read; where no $ref is found, at the
// document's start.
func (b *oaBuilder) refusedDiagnostics() []source.Diagnostic {
	type doc struct {
		file string // slash path, as references are resolved against it
		name string // for diagnostics
		src  *source.Source
	}
	docs := []doc{{b.root, b.src.Name, b.src}}
	names := make([]string, 0, len(b.sources))
	for f := range b.sources {
		names = append(names, f)
	}
	sort.Strings(names)
	for _, f := range names {
		docs = append(docs, doc{f, f, b.sources[f]})
	}
	var out []source.Diagnostic
	for _, r := range b.refused {
		found := false
		for _, d := range docs {
			walkRefs(d.src.Tree, "", func(ptr string, ref *jsontree.Node) {
				if refTarget(d.file, ref.Str) != r.key {
					return
				}
				found = true
				off := ref.Offset
				if d.src.Pos != nil {
					off = -1 // an offset in the JSON form, not the YAML text
				}
				line, col := d.src.Position(ptr, off)
				msg := fmt.Sprintf("$ref %q: %s", clipRef(ref.Str), r.reason)
				if isMapping(ptr) {
					msg = fmt.Sprintf("the discriminator maps %q to %q: %s", pointerUnescaper.Replace(path.Base(ptr)), clipRef(ref.Str), r.reason)
				}
				out = append(out, source.Diagnostic{File: d.name, Line: line, Col: col, Path: ptr, Message: msg})
			})
		}
		for _, rr := range b.replacedRefs {
			if found || refTarget(rr.file, rr.ref.Str) != r.key {
				continue
			}
			for _, d := range docs {
				if d.file != rr.file {
					continue
				}
				off := rr.ref.Offset
				if d.src.Pos != nil {
					off = -1
				}
				line, col := d.src.Position(rr.ptr, off)
				out = append(out, source.Diagnostic{File: d.name, Line: line, Col: col, Path: rr.ptr,
					Message: fmt.Sprintf("$ref %q: %s", clipRef(rr.ref.Str), r.reason)})
				found = true
				break
			}
		}
		if !found {
			out = append(out, source.Diagnostic{File: b.src.Name, Line: 1, Col: 1,
				Message: fmt.Sprintf("$ref to %q: %s", clipRef(r.uri), r.reason)})
		}
	}
	out = source.Dedup(out)
	// In document order, file by file.
	rank := map[string]int{}
	for i, d := range docs {
		rank[d.name] = i
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, c := out[i], out[j]
		if rank[a.File] != rank[c.File] {
			return rank[a.File] < rank[c.File]
		}
		if a.Line != c.Line {
			return a.Line < c.Line
		}
		return a.Col < c.Col
	})
	return out
}

// clipRef shortens a long reference for a message.
func clipRef(s string) string {
	const max = 200
	if len(s) <= max {
		return s
	}
	i := max
	for i > 0 && s[i]&0xC0 == 0x80 { // not inside a UTF-8 sequence
		i--
	}
	return s[:i] + "…"
}

// isMapping reports whether ptr is a value of a discriminator's mapping.
func isMapping(ptr string) bool { return strings.HasSuffix(path.Dir(ptr), "/discriminator/mapping") }

// walkRefs calls f with the pointer and value of every string member "$ref"
// under n, and of every value of a discriminator's mapping (kin-openapi
// reads those as references too: isMapping tells them), in document order.
func walkRefs(n *jsontree.Node, ptr string, f func(ptr string, ref *jsontree.Node)) {
	if n == nil {
		return
	}
	// An explicit stack: documents may nest deeply.
	type item struct {
		n   *jsontree.Node
		ptr string
		ref bool // the value of a member "$ref", or of a mapping
	}
	stack := []item{{n: n, ptr: ptr}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch it.n.Kind {
		case jsontree.Object:
			for i := len(it.n.Members) - 1; i >= 0; i-- {
				m := it.n.Members[i]
				mptr := it.ptr + jsontree.Pointer(m.Key)
				stack = append(stack, item{m.Value, mptr, m.Key == "$ref" || isMapping(mptr)})
			}
		case jsontree.Array:
			for i := len(it.n.Items) - 1; i >= 0; i-- {
				stack = append(stack, item{n: it.n.Items[i], ptr: it.ptr + "/" + strconv.Itoa(i)})
			}
		case jsontree.String:
			if it.ref {
				f(it.ptr, it.n)
			}
		}
	}
}

// warnUnresolved warns that the named schema n, which kin-openapi left
// without a value, accepts any JSON value: its $ref leads into a cycle of
// references. The warning names n's Go type: it is called once the model
// has named it.
func (b *oaBuilder) warnUnresolved(n *oaNamed) {
	file, ptr, _ := strings.Cut(n.key, "#")
	loc := b.sourceLoc(oaLoc{file: file, ptr: ptr})
	if r := b.node(loc).Get("$ref"); r == nil || r.Kind != jsontree.String {
		b.warn(loc, "the schema could not be resolved; %s accepts any JSON value (json.RawMessage)", n.t.Name)
		return
	}
	chain, loop := b.aliasChain(loc)
	what := "form a cycle"
	if loop < 0 {
		b.warn(loc.add("$ref"), "the references could not be resolved: %s; %s accepts any JSON value (json.RawMessage)",
			strings.Join(chain, " -> "), n.t.Name)
		return
	}
	if loop > 0 {
		what = "lead into a cycle"
	}
	b.warn(loc.add("$ref"), "the references %s: %s; %s accepts any JSON value (json.RawMessage)",
		what, strings.Join(chain, " -> "), n.t.Name)
}

// sourceLoc returns loc as a place in the source: a converted Swagger
// document's schemas are at /definitions.
func (b *oaBuilder) sourceLoc(loc oaLoc) oaLoc {
	if b.swagger && path.Clean(loc.file) == path.Clean(b.root) {
		if rest, ok := strings.CutPrefix(loc.ptr, "/components/schemas/"); ok {
			loc.ptr = "/definitions/" + rest
		}
	}
	return loc
}

// aliasChain follows the $refs of the schemas that are only a reference,
// from the one at loc. It returns their names (quoted), the last repeating
// an earlier one when they loop, and the index in the chain where the loop
// starts (-1 when they do not).
func (b *oaBuilder) aliasChain(loc oaLoc) ([]string, int) {
	seen := map[oaLoc]int{}
	var chain []string
	for range 1000 {
		loc.file = path.Clean(loc.file)
		if i, ok := seen[loc]; ok {
			return append(chain, chain[i]), i
		}
		seen[loc] = len(chain)
		chain = append(chain, strconv.Quote(clipRef(b.schemaName(loc))))
		r := b.node(loc).Get("$ref")
		if r == nil || r.Kind != jsontree.String {
			break
		}
		file, frag, _ := strings.Cut(r.Str, "#")
		if file != "" {
			if file = refTarget(loc.file, file); file == "" {
				break // a URL: not followed
			}
		} else {
			file = loc.file
		}
		if frag, err := url.PathUnescape(frag); err == nil {
			loc = b.sourceLoc(oaLoc{file: file, ptr: frag})
		} else {
			break
		}
	}
	return chain, -1
}

// schemaName names the schema at loc for a message: its name among the
// document's schemas, or its location.
func (b *oaBuilder) schemaName(loc oaLoc) string {
	if path.Clean(loc.file) == path.Clean(b.root) {
		for _, prefix := range []string{"/components/schemas/", "/definitions/"} {
			if name, ok := strings.CutPrefix(loc.ptr, prefix); ok && !strings.Contains(name, "/") {
				return pointerUnescaper.Replace(name)
			}
		}
		return "#" + loc.ptr
	}
	return loc.file + "#" + loc.ptr
}
