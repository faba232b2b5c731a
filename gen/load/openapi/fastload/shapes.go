package fastload

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// verifiedFields are the fields, exported or not, of every kin-openapi type
// the fast path builds, as they were in the version it was verified against
// (kin-openapi v0.152.0 and v0.153.0).
var verifiedFields = map[reflect.Type]string{
	reflect.TypeFor[openapi3.Paths]():       "Extensions Origin m",
	reflect.TypeFor[openapi3.PathItem]():    "Extensions Origin Ref Summary Description Connect Delete Get Head Options Patch Post Put Trace Query Servers Parameters AdditionalOperations refSiblings refResolved",
	reflect.TypeFor[openapi3.Operation]():   "Extensions Origin Tags Summary Description OperationID Parameters RequestBody Responses Callbacks Deprecated Security Servers ExternalDocs",
	reflect.TypeFor[openapi3.Parameter]():   "Extensions Origin Name In Description Style Explode AllowEmptyValue AllowReserved Deprecated Required Schema Example Examples Content",
	reflect.TypeFor[openapi3.Header]():      "Parameter",
	reflect.TypeFor[openapi3.RequestBody](): "Extensions Origin Description Required Content",
	reflect.TypeFor[openapi3.Responses]():   "Extensions Origin m explicitlyNull",
	reflect.TypeFor[openapi3.Response]():    "Extensions Origin Description Headers Content Links",
	reflect.TypeFor[openapi3.MediaType]():   "Extensions Origin Schema ItemSchema Example Examples Encoding",
	reflect.TypeFor[openapi3.Example]():     "Extensions Origin Summary Description Value ExternalValue",
	reflect.TypeFor[openapi3.Schema](): "Extensions Origin OneOf AnyOf AllOf Not Type Title Format Description Enum Default Example ExternalDocs " +
		"UniqueItems ExclusiveMin ExclusiveMax Nullable ReadOnly WriteOnly AllowEmptyValue Deprecated XML Min Max MultipleOf " +
		"MinLength MaxLength Pattern MinItems MaxItems Items Required Properties MinProps MaxProps AdditionalProperties Discriminator " +
		"Const Examples PrefixItems Contains MinContains MaxContains PatternProperties DependentSchemas PropertyNames " +
		"UnevaluatedItems UnevaluatedProperties If Then Else DependentRequired Always Defs SchemaDialect Comment SchemaID Anchor " +
		"DynamicRef DynamicAnchor ContentMediaType ContentEncoding ContentSchema",
	reflect.TypeFor[openapi3.Components]():     "Extensions Origin Schemas Parameters Headers RequestBodies Responses SecuritySchemes Examples Links Callbacks",
	reflect.TypeFor[openapi3.SchemaRef]():      "Extensions Origin Ref Value extra siblingExtras sibling siblingErr target refPath",
	reflect.TypeFor[openapi3.ParameterRef]():   "Extensions Origin Summary Description Ref Value extra siblingExtras refPath",
	reflect.TypeFor[openapi3.HeaderRef]():      "Extensions Origin Summary Description Ref Value extra siblingExtras refPath",
	reflect.TypeFor[openapi3.ExampleRef]():     "Extensions Origin Summary Description Ref Value extra siblingExtras refPath",
	reflect.TypeFor[openapi3.RequestBodyRef](): "Extensions Origin Summary Description Ref Value extra siblingExtras refPath",
	reflect.TypeFor[openapi3.ResponseRef]():    "Extensions Origin Summary Description Ref Value extra siblingExtras refPath",
}

// linkedShapes checks that every type in fields has exactly the fields
// recorded for it in the kin-openapi linked into the program, whatever its
// version: a field the fast path was not verified with turns it off.
func linkedShapes(fields map[reflect.Type]string) error {
	for typ, recorded := range fields {
		var have []string
		for i := range typ.NumField() {
			have = append(have, typ.Field(i).Name)
		}
		if got := strings.Join(have, " "); got != recorded {
			return fmt.Errorf("%v has fields %q, the fast path was verified with %q", typ, got, recorded)
		}
	}
	return nil
}
