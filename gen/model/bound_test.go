package model

import (
	"encoding/json"
	"go/token"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/opentoolgen/opentoolgen/runtime/document"
)

func TestBoundName(t *testing.T) {
	long := "PostCustomersCustomerSubscriptionsSubscriptionExposedIDPaymentSettingsPaymentMethodOptionsCardArgs"
	cases := []struct{ in, prefix, suffix string }{
		{"UserID", "UserID", "UserID"},
		{strings.Repeat("A", MaxNameLength), strings.Repeat("A", MaxNameLength), ""},
		{long, "PostCustomersCustomerSubscriptions", "OptionsCardArgs"},
		{"Value" + strings.Repeat("x", 100), "Value", ""},
		{"Überlänge" + strings.Repeat("Ärger", 30), "Überlänge", "Ärger"},
	}
	for _, c := range cases {
		got := BoundName(c.in)
		if n := utf8.RuneCountInString(got); n > MaxNameLength {
			t.Errorf("BoundName(%q) = %q: %d runes, want at most %d", c.in, got, n, MaxNameLength)
		}
		if !token.IsIdentifier(got) {
			t.Errorf("BoundName(%q) = %q: not an identifier", c.in, got)
		}
		if !strings.HasPrefix(got, c.prefix) || !strings.HasSuffix(got, c.suffix) {
			t.Errorf("BoundName(%q) = %q, want %q…%q", c.in, got, c.prefix, c.suffix)
		}
		if again := BoundName(c.in); again != got {
			t.Errorf("BoundName(%q) not stable: %q then %q", c.in, got, again)
		}
	}
	// Names that differ only in the middle, cut away, stay apart.
	seen := map[string]string{}
	for _, mid := range []string{"Card", "Cards", "Sepa", "Bank", "Link", "Klarna", "Paypal", "Zip"} {
		in := "PostCustomersCustomerSubscriptionsSubscriptionExposedID" + mid + "PaymentSettingsPaymentMethodOptionsArgs"
		got := BoundName(in)
		if other, ok := seen[got]; ok {
			t.Errorf("BoundName(%q) = BoundName(%q) = %q", in, other, got)
		}
		seen[got] = in
	}
}

// TestLongNamesFromOpenTool builds the model of a document whose names are
// far too long and differ only past the bound: every name made is bounded,
// none collides, and adding an unrelated function renames nothing.
func TestLongNamesFromOpenTool(t *testing.T) {
	long := "create_or_update_the_subscription_schedule_invoice_item_price_data_recurring_interval_"
	doc := func(extra bool) *document.OpenTool {
		var fns []string
		if extra {
			fns = append(fns, `{"name":"`+long+`aaa","parameters":[]}`)
		}
		for _, tail := range []string{"count", "counts", "count_with_proration"} {
			fns = append(fns, `{"name":"`+long+tail+`","parameters":[
				{"name":"`+long+`options","required":true,"schema":{"type":"object","properties":{
					"`+long+`x":{"type":"string","enum":["`+long+`first","`+long+`firsts"]},
					"`+long+`y":{"type":"array","items":{"type":"object","properties":{"`+long+`z":{"type":"integer"}}}}}}}],
				"return":{"name":"r","schema":{"$ref":"#/schemas/`+long+`schema"}}}`)
		}
		data := `{"opentool":"1.0.0","info":{"title":"t","version":"1"},"functions":[` + strings.Join(fns, ",") + `],
			"schemas":{"` + long + `schema":{"type":"object","properties":{"` + long + `member":{"type":"boolean"}}},
			"` + long + `schemas":{"type":"string","enum":["a","b"]}}}`
		var d document.OpenTool
		if err := json.Unmarshal([]byte(data), &d); err != nil {
			t.Fatal(err)
		}
		return &d
	}
	names := func(p *Package) map[string]string { // what → Go name
		out := map[string]string{}
		for _, fn := range p.Functions {
			out["func "+fn.Name] = fn.GoName
		}
		for _, ty := range p.Types {
			key := "type " + ty.Origin + ty.Doc
			out[key] = ty.Name
			for _, f := range ty.Fields {
				out[key+"."+f.JSONName] = f.Name
			}
			for _, v := range ty.Values {
				out[key+"="+v.Name] = v.Name
			}
		}
		return out
	}
	p := FromOpenTool(doc(false), "long.json")
	p.Name = "long"
	if c := Collisions(p); len(c) > 0 {
		t.Fatalf("collisions: %v", c)
	}
	before := names(p)
	for what, name := range before {
		// A number may follow a bounded name taken twice in one scope.
		if n := utf8.RuneCountInString(strings.TrimRight(name, "0123456789")); n > MaxNameLength {
			t.Errorf("%s: %q has %d runes", what, name, n)
		}
	}
	if got, want := len(p.Functions), 3; got != want {
		t.Fatalf("%d functions, want %d", got, want)
	}
	q := FromOpenTool(doc(true), "long.json")
	after := names(q)
	for what, name := range before {
		if strings.HasPrefix(what, "type ") && !strings.Contains(what, "schema") {
			continue // origins name the function's Go name, compared below
		}
		if after[what] != name {
			t.Errorf("%s: %q became %q when an unrelated function was added", what, name, after[what])
		}
	}
	for i, fn := range p.Functions {
		if g := q.Functions[i+1]; g.GoName != fn.GoName || g.Args.Name != fn.Args.Name {
			t.Errorf("function %d: %s/%s became %s/%s", i, fn.GoName, fn.Args.Name, g.GoName, g.Args.Name)
		}
	}
}
