package model

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// ShareArgs makes the argument struct of an HTTP operation that is the same
// as an earlier operation's (the same fields, each of the same name, member,
// type, doc and checks: Microsoft Graph's $count of every collection, its
// listings of the same entity through each navigation path) an alias of
// that struct (KindAlias), so that one struct and one decoder serve them
// all. The alias keeps its Fields, which say where each argument travels in
// its own operation (Field.HTTP) and which name the same Go fields. Name
// calls it for OpenAPI packages, once pointers are decided.
func ShareArgs(p *Package) {
	first := map[string]*Type{}
	for _, fn := range p.Functions {
		t := fn.Args
		if fn.HTTP == nil || t == nil || t.Kind != KindStruct || t.CustomJSON {
			continue
		}
		key, ok := structKey(t)
		if !ok {
			continue
		}
		target := first[key]
		if target == nil {
			first[key] = t
			continue
		}
		t.Kind = KindAlias
		t.Underlying = &TypeRef{Kind: RefNamed, Named: target}
		t.Doc = strings.TrimSuffix(t.Doc, ".") + ", the same as " + target.Name + "."
	}
}

// structKey is what makes two structs the same Go type, as ShareArgs
// compares them; false for a struct it does not compare.
func structKey(t *Type) (string, bool) {
	var b strings.Builder
	if t.Check != nil {
		j, err := json.Marshal(t.Check)
		if err != nil {
			return "", false
		}
		b.Write(j)
	}
	for _, f := range t.Fields {
		fmt.Fprintf(&b, "\x00%s\x01%s\x01%s\x01%t%t%t%t%t%t\x01%s\x01", f.Name, f.JSONName, f.Doc, f.Required, f.Pointer, f.Nullable, f.Embedded, f.JSONText, f.WriteOnly, f.NullFlag)
		if !refKey(&b, f.Type) {
			return "", false
		}
	}
	return b.String(), true
}

// refKey writes what tells the type r from others to b: its kind, the
// named type it is (by identity), its size and checks.
func refKey(b *strings.Builder, r *TypeRef) bool {
	for ; r != nil; r = r.Elem {
		b.WriteString(strconv.Itoa(int(r.Kind)))
		if r.Named != nil {
			fmt.Fprintf(b, "@%p", r.Named)
		}
		fmt.Fprintf(b, ":%d%t", r.Bits, r.Unsigned)
		if r.Check != nil {
			j, err := json.Marshal(r.Check)
			if err != nil {
				return false
			}
			b.Write(j)
		}
		b.WriteByte('/')
	}
	return true
}
