package model

import (
	"fmt"
	"path"
	"strings"

	"github.com/opentoolgen/opentoolgen/runtime/document"
)

// A Selector chooses functions by patterns: a glob over the function's name
// (path.Match syntax: *, ?, [a-z]), "tag:GLOB" over an OpenAPI operation's
// tags, "path:GLOB" over its path template ("/repos/*/*/issues"; * does not
// cross a /, so "path:/repos/**" is written "path:/repos/*" per level).
type Selector struct {
	Include, Exclude []string
}

// Check reports the first malformed pattern.
func (s Selector) Check() error {
	for _, list := range [][]string{s.Include, s.Exclude} {
		for _, p := range list {
			_, glob := splitPattern(p)
			if glob == "" {
				return fmt.Errorf("pattern %q: empty", p)
			}
			if _, err := path.Match(glob, ""); err != nil {
				return fmt.Errorf("pattern %q: %v", p, err)
			}
		}
	}
	return nil
}

func splitPattern(p string) (kind, glob string) {
	for _, k := range []string{"tag:", "path:"} {
		if strings.HasPrefix(p, k) {
			return strings.TrimSuffix(k, ":"), p[len(k):]
		}
	}
	return "name", p
}

// matches reports whether pattern p chooses fn.
func matches(p string, fn *Function) bool {
	kind, glob := splitPattern(p)
	switch kind {
	case "tag":
		if fn.HTTP == nil {
			return false
		}
		for _, t := range fn.HTTP.Tags {
			if ok, _ := path.Match(glob, t); ok {
				return true
			}
		}
		return false
	case "path":
		if fn.HTTP == nil {
			return false
		}
		ok, _ := path.Match(glob, fn.HTTP.Path)
		return ok
	}
	ok, _ := path.Match(glob, fn.Name)
	return ok
}

// Keeps reports whether s keeps fn: it matches an Include pattern (or there
// are none) and no Exclude pattern.
func (s Selector) Keeps(fn *Function) bool {
	kept := len(s.Include) == 0
	for _, p := range s.Include {
		if matches(p, fn) {
			kept = true
			break
		}
	}
	for _, p := range s.Exclude {
		if kept && matches(p, fn) {
			kept = false
		}
	}
	return kept
}

// Select keeps the functions of p that s keeps, and of its types, patterns
// and document schemas those the kept functions need; names made before stay
// as they are. It returns the patterns that chose no function, for warnings.
func Select(p *Package, s Selector) (unmatched []string) {
	if len(s.Include) == 0 && len(s.Exclude) == 0 {
		return nil
	}
	for _, list := range [][]string{s.Include, s.Exclude} {
		for _, pat := range list {
			hit := false
			for _, fn := range p.Functions {
				if matches(pat, fn) {
					hit = true
					break
				}
			}
			if !hit {
				unmatched = append(unmatched, pat)
			}
		}
	}
	var fns []*Function
	kept := map[string]bool{}
	for _, fn := range p.Functions {
		if s.Keeps(fn) {
			fns = append(fns, fn)
			kept[fn.Name] = true
		}
	}
	p.Functions = fns

	// The types the kept functions reach.
	r := &reach{types: map[*Type]bool{}, patterns: map[string]bool{}}
	for _, fn := range fns {
		r.typ(fn.Args)
		r.ref(fn.Result)
		if fn.HTTP != nil {
			for _, resp := range fn.HTTP.Responses {
				r.ref(resp.Type)
			}
		}
	}
	for _, w := range p.Webhooks { // the receiver is kept whole
		r.typ(w.Fn.Args)
	}
	types, patterns := r.types, r.patterns
	var ts []*Type
	for _, t := range p.Types {
		if types[t] {
			ts = append(ts, t)
		}
	}
	p.Types = ts
	var ps []PatternVar
	for _, pv := range p.Patterns {
		if patterns[pv.Name] {
			ps = append(ps, pv)
		}
	}
	p.Patterns = ps

	if doc := p.Document; doc != nil {
		cp := *doc
		cp.Functions = nil
		used := map[string]bool{}
		var walk func(s *document.Schema)
		walk = func(s *document.Schema) {
			s.Each(func(s *document.Schema) bool {
				if name, ok := document.RefName(s.Ref); ok && !used[name] {
					used[name] = true
					walk(doc.Schemas.Get(name))
				}
				return true
			})
		}
		for _, f := range doc.Functions {
			if !kept[f.Name] {
				continue
			}
			cp.Functions = append(cp.Functions, f)
			f.EachSchema(walk)
		}
		if cp.Functions == nil {
			cp.Functions = []document.Function{}
		}
		cp.Schemas = nil
		for _, m := range doc.Schemas {
			if used[m.Name] {
				cp.Schemas = append(cp.Schemas, m)
			}
		}
		p.Document = &cp
	}
	return unmatched
}

// reach collects the types and pattern variables that types refer to.
type reach struct {
	types    map[*Type]bool
	patterns map[string]bool
}

func (r *reach) typ(t *Type) {
	if t == nil || r.types[t] {
		return
	}
	r.types[t] = true
	for _, f := range t.Fields {
		r.ref(f.Type)
	}
	r.ref(t.Underlying)
	for _, v := range t.Variants {
		r.ref(v.Type)
	}
}

func (r *reach) ref(tr *TypeRef) {
	for ; tr != nil; tr = tr.Elem {
		if tr.Check != nil && tr.Check.PatternVar != "" {
			r.patterns[tr.Check.PatternVar] = true
		}
		r.typ(tr.Named)
	}
}
