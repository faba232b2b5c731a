package model

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/opentoolgen/opentoolgen/runtime/document"
)

// TestNaming builds a package the way the OpenAPI loader does, with document
// words and places only, and checks the names Name makes: in the order they
// were asked for, a place named after the names of what it is relative to,
// the reserved names of the kind avoided.
func TestNaming(t *testing.T) {
	n := &Naming{}
	p := &Package{Kind: "openapi", Naming: n, API: &API{}}
	add := func(t *Type) *Type { p.Types = append(p.Types, t); return t }

	auth := &SecurityScheme{Name: "petstore_auth"}
	n.Option(auth)
	client := add(&Type{Kind: KindStruct})
	n.Schema(client, "client") // reserved in an OpenAPI package
	pet := add(&Type{Kind: KindStruct})
	n.Schema(pet, "pet")
	pet2 := add(&Type{Kind: KindStruct})
	n.Schema(pet2, "Pet") // taken second: numbered
	owner := &Field{JSONName: "owner"}
	n.Member(pet, owner)
	ownerType := add(&Type{Kind: KindStruct})
	n.Type(ownerType, MemberPlace(pet, owner)) // PetOwner, after the field's name
	owner.Type = &TypeRef{Kind: RefNamed, Named: ownerType}
	tags := &Field{JSONName: "tags"}
	n.Member(pet, tags)
	tag := add(&Type{})
	n.Type(tag, MemberPlace(pet, tags).Item().Item())
	n.Enum(tag, &document.Schema{Type: document.TypeString, Enum: []any{"a-b", ""}})
	tags.Type = &TypeRef{Kind: RefSlice, Elem: &TypeRef{Kind: RefSlice, Elem: &TypeRef{Kind: RefNamed, Named: tag}}}
	marshal := &Field{JSONName: "marshalJSON", Type: &TypeRef{Kind: RefString}} // a method of every struct
	n.Member(pet, marshal)
	pet.Fields = []*Field{owner, tags, marshal}

	fn := &Function{Name: "list_pets", HTTP: &Operation{Method: "GET", Path: "/pets"}}
	n.Method(fn, "listPets")
	args := add(&Type{Kind: KindStruct})
	n.Args(fn, args)
	limit := &Field{JSONName: "--"} // no letters: the fallback
	n.Param(args, limit)
	limitType := add(&Type{})
	n.Type(limitType, ParamPlace(fn, limit, "--"))
	res := add(&Type{Kind: KindStruct})
	n.Type(res, ResponsePlace(fn, "404", false))
	union := add(&Type{Kind: KindUnion})
	n.Type(union, ResponsePlace(fn, "200", true))
	v1 := &Variant{Type: &TypeRef{Kind: RefNamed, Named: pet}}
	n.Variant(union, v1)
	v2 := &Variant{Type: &TypeRef{Kind: RefNamed, Named: pet}}
	n.Variant(union, v2)
	v3 := &Variant{Type: &TypeRef{Kind: RefString}}
	n.Variant(union, v3)
	union.Variants = []*Variant{v1, v2, v3}

	c1, c2, c3 := &Constraints{Pattern: "^a"}, &Constraints{Pattern: "^b"}, &Constraints{Pattern: "^a"}
	n.Pattern(c1)
	n.Pattern(c2)
	n.Pattern(c3)

	Name(p)
	if p.Naming != nil {
		t.Error("Naming left after Name")
	}
	for _, tc := range []struct{ got, want string }{
		{auth.Option, "WithPetstoreAuth"},
		{client.Name, "Client2"},
		{pet.Name, "Pet"},
		{pet2.Name, "Pet2"},
		{pet2.Origin, `Pet2 is the schema "Pet" of the document.`},
		{owner.Name, "Owner"},
		{ownerType.Name, "PetOwner"},
		{ownerType.Origin, `PetOwner is the "owner" member of Pet.`},
		{tag.Name, "PetTagsItemItem"},
		{tag.Origin, `PetTagsItemItem is an element of an element of the "tags" member of Pet.`},
		{tag.Values[0].Name, "PetTagsItemItemAB"},
		{tag.Values[1].Name, "PetTagsItemItemEmpty"},
		{marshal.Name, "MarshalJSON2"},
		{fn.GoName, "ListPets"},
		{args.Name, "ListPetsArgs"},
		{args.Doc, `ListPetsArgs are the arguments of "list_pets" (GET /pets).`},
		{limit.Name, "Arg"},
		{limitType.Name, "ListPetsArg"},
		{limitType.Origin, `ListPetsArg is the "--" parameter of "list_pets".`},
		{res.Name, "ListPetsX404Response"},
		{union.Name, "ListPetsResult"},
		{union.Origin, `ListPetsResult is the 200 response of "list_pets".`},
		{v1.Name, "Pet"},
		{v2.Name, "Pet2"},
		{v3.Name, "String"},
		{union.Decoder, "decodeListPetsResult"}, // a union's UnmarshalJSON uses it
		{pet.Decoder, "decodePet"},              // and so the types it reaches
		{tag.Decoder, "decodePetTagsItemItem"},
		{pet2.Decoder, ""}, // nothing reaches it
		{c1.PatternVar, "pattern1"},
		{c2.PatternVar, "pattern2"},
		{c3.PatternVar, "pattern1"}, // one variable per pattern
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
	if len(p.Patterns) != 2 || p.Patterns[0] != (PatternVar{"pattern1", "^a"}) || p.Patterns[1] != (PatternVar{"pattern2", "^b"}) {
		t.Errorf("Patterns = %v", p.Patterns)
	}
}

// TestPlaceDepth: the names and origins of places nested deeply stay short
// (NestedName, NestedOrigin), and each place is made once.
func TestPlaceDepth(t *testing.T) {
	owner := &Type{Name: "Owner"}
	f := &Field{Name: "Matrix", JSONName: "matrix"}
	at := MemberPlace(owner, f)
	for range 10000 {
		at = at.Item()
	}
	at.make(NewScope())
	if len(at.hint) > 2*maxNestedName || len(at.origin) > 2*maxOrigin {
		t.Errorf("hint %d bytes, origin %d bytes, want them bounded", len(at.hint), len(at.origin))
	}
	if !strings.HasSuffix(at.hint, "Item") || !strings.HasPrefix(at.origin, "a value nested in ") {
		t.Errorf("hint %q, origin %q", at.hint, at.origin)
	}
}

// TestNamingEnumNumbers: numeric enum values name their constants by value.
func TestNamingEnumNumbers(t *testing.T) {
	n := &Naming{}
	e := &Type{}
	n.Schema(e, "level")
	n.Enum(e, &document.Schema{Type: document.TypeInteger, Enum: []any{json.Number("-1"), json.Number("2")}})
	Name(&Package{Kind: "openapi", Naming: n, Types: []*Type{e}})
	if e.Kind != KindEnum || len(e.Values) != 2 || e.Values[0].Name != "LevelMinus1" || e.Values[1].Name != "Level2" || e.Values[0].Value != int64(-1) {
		t.Errorf("got %+v", e.Values)
	}
}

// TestNamingServers: a server's constant is named after its description when
// that is a short name, else after its URL without the scheme and
// variables; a schema named Server keeps its name (the servers are named
// after the schemas); a server variable with an enum gets a type and
// constants.
func TestNamingServers(t *testing.T) {
	n := &Naming{}
	schema := &Type{}
	n.Schema(schema, "Server")
	region := &ServerVariable{Name: "region", Enum: []string{"us", "eu-west"}}
	port := &ServerVariable{Name: "port"}
	n.ServerVariable(region)
	n.ServerVariable(port)
	api := &API{Servers: []*Server{
		{URL: "https://{region}.example.com/v1", Doc: "Production."},
		{URL: "https://{region}.sandbox.example.com/v1", Doc: "The sandbox, where nothing is charged: try things out here."},
		{URL: "/", Doc: ""},
		{URL: "http://localhost:{port}", Doc: "Local"},
		{URL: "https://b.example.com", Doc: "Production"},
		{URL: "http://127.0.0.1:{port}/", Doc: "a long description of the server, not a name"},
	}}
	n.Servers(api)
	Name(&Package{Kind: "openapi", Naming: n, Types: []*Type{schema}})
	var got []string
	for _, s := range api.Servers {
		got = append(got, s.Const)
	}
	if schema.Name != "Server" || api.ServerType != "Server2" ||
		strings.Join(got, " ") != "Server2Production Server2SandboxExampleComV1 Server2Index2 Server2Local Server2Production2 Server2127001" {
		t.Errorf("schema %s, type %s, constants %v", schema.Name, api.ServerType, got)
	}
	if region.Option != "WithServerRegion" || region.Type == nil || region.Type.Name != "ServerRegion" || region.Type.Kind != KindEnum ||
		len(region.Type.Values) != 2 || region.Type.Values[1].Name != "ServerRegionEuWest" || region.Type.Values[1].Value != "eu-west" {
		t.Errorf("region: option %s, type %+v", region.Option, region.Type)
	}
	if port.Option != "WithServerPort" || port.Type != nil {
		t.Errorf("port: option %s, type %+v", port.Option, port.Type)
	}
}
