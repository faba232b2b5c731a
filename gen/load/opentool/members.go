package opentool

import (
	"strconv"
	"strings"

	"github.com/opentoolgen/opentoolgen/internal/jsontree"
)

// The members each object of an OpenTool document defines; any other is
// warned about at its place ([UnknownMember]), but for vendor extensions
// ("x-…").
var (
	documentMembers  = []string{"opentool", "info", "server", "functions", "schemas"}
	infoMembers      = []string{"title", "description", "version"}
	serverMembers    = []string{"url", "description"}
	functionMembers  = []string{"name", "description", "parameters", "return", "stream", "tags", "http", "title", "annotations", "execution", "examples"}
	parameterMembers = []string{"name", "description", "schema", "required"}
	returnMembers    = []string{"name", "description", "schema"}
	// schemaMembers are the schema keywords the loader reads, and the
	// annotations it ignores quietly (quietSchemaMember).
	schemaMembers = []string{"$ref", "type", "description", "format", "nullable", "properties", "items", "required",
		"enum", "const", "default", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
		"minLength", "maxLength", "pattern", "minItems", "maxItems", "uniqueItems", "minProperties", "maxProperties",
		"oneOf", "anyOf", "additionalProperties",
		"title", "example", "examples", "deprecated", "readOnly", "writeOnly", "$comment"}
)

// unsupportedSchemaKeywords are JSON Schema keywords the OpenTool model has
// no member for: ignored with a warning that says so (not a guess at a
// misspelling: "allOf" is not a misspelt "anyOf").
var unsupportedSchemaKeywords = map[string]bool{
	"allOf": true, "not": true, "if": true, "then": true, "else": true, "prefixItems": true, "additionalItems": true,
	"contains": true, "minContains": true, "maxContains": true, "patternProperties": true, "propertyNames": true,
	"dependentRequired": true, "dependentSchemas": true, "dependencies": true, "unevaluatedItems": true,
	"unevaluatedProperties": true, "$id": true, "$schema": true, "$defs": true, "definitions": true, "$anchor": true,
	"$dynamicRef": true, "$dynamicAnchor": true, "discriminator": true, "xml": true, "externalDocs": true,
	"contentEncoding": true, "contentMediaType": true, "contentSchema": true,
}

// UnknownMember is the warning about a member key that an object whose
// members are known does not define: it names the member and, when one is
// close (a typo, another case), the known name meant.
func UnknownMember(key string, known []string) string {
	msg := "unknown member " + strconv.Quote(clipText(key)) + " ignored"
	if s := Closest(key, known); s != "" {
		msg += "; did you mean " + strconv.Quote(s) + "?"
	}
	return msg
}

// Closest returns the name of known nearest to key, "" when none is near
// enough to be a misspelling of it: the same but for case, or at most one
// edit (insertion, deletion, substitution or swap of neighbours) for names
// up to 4 characters, two up to 8, three beyond. The first of the nearest,
// in known's order.
func Closest(key string, known []string) string {
	if len(key) > 64 {
		return ""
	}
	lk := strings.ToLower(key)
	best, bestD := "", -1
	for _, k := range known {
		d := editDistance(lk, strings.ToLower(k))
		if bestD < 0 || d < bestD {
			best, bestD = k, d
		}
	}
	limit := 1
	switch n := max(len(key), len(best)); {
	case n > 8:
		limit = 3
	case n > 4:
		limit = 2
	}
	if bestD < 0 || bestD > limit {
		return ""
	}
	return best
}

// editDistance is the optimal string alignment distance of a and b (bytes).
func editDistance(a, b string) int {
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

// unknownMembers warns about each member of obj (the value being read) that
// known does not list, but for extensions ("x-…").
func (l *otLoader) unknownMembers(obj *jsontree.Node, known []string) {
	for _, m := range obj.Members {
		if strings.HasPrefix(m.Key, "x-") || contains(known, m.Key) {
			continue
		}
		l.warnf(l.at(m.Key), m.KeyOffset, "%s", UnknownMember(m.Key, known))
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
