package model

import (
	"encoding/json"
	"strconv"
)

// Collisions returns what would make the generated package fail to compile
// because two things ended up equal after naming: two package-level
// identifiers (types, constants, options, decoders, pattern variables), two
// methods, two fields of a struct or variants of a union, two fields of a
// struct that decode the same member (one case each in its decoder), two
// constants of an enum with one value (cases of its Valid), two functions
// with one wire name (cases of the Tool's dispatch). Each message names both
// things, the first one met first; none when the package is sound. The
// naming (Scope, enumValues) resolves all of these as it makes the names;
// Generate calls Collisions after it as a safety net, so that a bug there
// is an error naming both places, never code the compiler refuses.
func Collisions(p *Package) []string {
	var out []string
	pkg := newCheckScope(&out, "package-level identifier")
	methods := newCheckScope(&out, "method")
	wire := newCheckScope(&out, "function name")
	pkg.add(p.Service(), "the interface "+p.Service()+" of tool.gen.go")
	done := map[*Type]bool{}
	checkType := func(out *[]string, pkg *checkScope, t *Type) {
		if !done[t] {
			done[t] = true
			checkType(out, pkg, t)
		}
	}
	for _, t := range p.Types {
		checkType(&out, pkg, t)
	}
	for _, pv := range p.Patterns {
		pkg.add(pv.Name, "the pattern variable "+pv.Name)
	}
	for _, fn := range p.Functions {
		what := "the function " + strconv.Quote(fn.Name)
		wire.add(fn.Name, what)
		methods.add(fn.GoName, "the method of "+what)
		if fn.SeqName != "" {
			methods.add(fn.SeqName, "the iterator method of "+what)
		}
		if fn.HTTP != nil && fn.HTTP.HeadersMethod != "" {
			methods.add(fn.HTTP.HeadersMethod, "the method with headers of "+what)
		}
		if fn.HTTP != nil && fn.HTTP.Paging != nil {
			methods.add(fn.HTTP.Paging.Method, "the iterator method of "+what)
		}
		if fn.HTTP != nil && fn.HTTP.Headers != nil {
			checkType(&out, pkg, fn.HTTP.Headers)
		}
	}
	if api := p.API; api != nil {
		for _, sc := range api.Security {
			pkg.add(sc.Option, "the client option of the security scheme "+strconv.Quote(sc.Name))
			if sc.FlowOption != "" {
				pkg.add(sc.FlowOption, "the client credentials option of the security scheme "+strconv.Quote(sc.Name))
			}
		}
		for _, v := range api.Variables {
			pkg.add(v.Option, "the client option of the server variable "+strconv.Quote(v.Name))
			if v.Type != nil {
				checkType(&out, pkg, v.Type)
			}
		}
		if len(api.Servers) > 0 {
			pkg.add(api.ServerType, "the type of the servers")
			for _, sv := range api.Servers {
				pkg.add(sv.Const, "the constant of the server "+strconv.Quote(sv.URL))
			}
		}
	}
	return out
}

// checkType adds t's names to the package scope pkg and checks the names
// and values inside it.
func checkType(out *[]string, pkg *checkScope, t *Type) {
	what := "the type " + t.Name
	if t.Origin != "" {
		what += " (" + t.Origin + ")"
	}
	pkg.add(t.Name, what)
	if t.Decoder != "" {
		pkg.add(t.Decoder, "the decoder of the type "+t.Name)
	}
	if t.BodySender != "" {
		pkg.add(t.BodySender, "the function that sends the type "+t.Name+" as a request body")
	}
	switch t.Kind {
	case KindEnum:
		values := newCheckScope(out, "value of the enum "+t.Name)
		for i, v := range t.Values {
			pkg.add(v.Name, "the constant "+v.Name+" of the type "+t.Name)
			b, _ := json.Marshal(v.Value)
			values.addValue(v.Value, "its constant "+strconv.Itoa(i+1)+", "+v.Name+" = "+string(b))
		}
	case KindStruct:
		fields := newCheckScope(out, "field of the struct "+t.Name)
		members := newCheckScope(out, "member decoded by the struct "+t.Name)
		for _, f := range t.Fields {
			fields.add(f.Name, "the field "+f.Name+" for "+strconv.Quote(f.JSONName))
			if f.NullFlag != "" {
				fields.add(f.NullFlag, "the null flag "+f.NullFlag+" of "+strconv.Quote(f.JSONName))
			}
			if (t.Decoder != "" || t.CustomJSON) && !f.Embedded {
				members.add(f.JSONName, "the field "+f.Name)
			}
		}
	case KindUnion:
		variants := newCheckScope(out, "variant of the union "+t.Name)
		for _, v := range t.Variants {
			variants.add(v.Name, "the variant "+v.Name)
		}
	}
}

// checkScope finds the names (or values) of one namespace taken twice.
type checkScope struct {
	out  *[]string
	what string
	seen map[any]string
}

func newCheckScope(out *[]string, what string) *checkScope {
	return &checkScope{out: out, what: what, seen: map[any]string{}}
}

// add records the name of the thing described by what.
func (s *checkScope) add(name, what string) { s.addValue(name, what) }

// addValue records a name or a constant's value (string, int64, float64).
func (s *checkScope) addValue(key any, what string) {
	if first, ok := s.seen[key]; ok {
		b, _ := json.Marshal(key)
		*s.out = append(*s.out, string(b)+" is taken twice as a "+s.what+": "+first+", and "+what)
		return
	}
	s.seen[key] = what
}
