package declare_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/opentoolgen/opentoolgen/runtime/declare"
)

// tagDoc is a served document as a package generated from an OpenAPI 3.2
// document embeds it: functions with tags, and tags nested by parent.
const tagDoc = `{"opentool":"1.0.0","info":{"title":"t","version":"1"},"functions":[
	{"name":"list_pets","description":"Lists pets.","parameters":[],"tags":["Pets"]},
	{"name":"list_dogs","description":"Lists dogs.","parameters":[],"tags":["Dogs","Pets"]},
	{"name":"add_dog","description":"Adds a dog.","parameters":[],"tags":["Dogs"]},
	{"name":"buy","description":"Buys.","parameters":[],"tags":["Store!"]},
	{"name":"ping","description":"Pings.","parameters":[]}
],"tags":[
	{"name":"Pets","summary":"Pets","description":"Every pet."},
	{"name":"Dogs","summary":"Dogs only.","parent":"Pets"}
]}`

// TestTagNamespaces checks the namespaces made at run time from the
// functions' tags (document.Function.Tags): each function in its first
// tag's namespace, a nested tag a namespace of its own described with its
// parents' names, a function without tags at the top level, given
// namespaces and descriptions winning, and no namespaces for a profile
// without them.
func TestTagNamespaces(t *testing.T) {
	doc := loadDoc(t, tagDoc)
	ns, desc := declare.NamespacesByTag(doc)
	wantNS := map[string]string{"list_pets": "pets", "list_dogs": "dogs", "add_dog": "dogs", "buy": "store"}
	wantDesc := map[string]string{"pets": "Every pet.", "dogs": "Pets › Dogs: Dogs only."}
	if !reflect.DeepEqual(ns, wantNS) || !reflect.DeepEqual(desc, wantDesc) {
		t.Errorf("NamespacesByTag:\n%v\n%v", ns, desc)
	}
	d, err := declare.FunctionsWith(doc, declare.OpenAIResponses, declare.Options{ToolSearch: true, TagNamespaces: true})
	if err != nil {
		t.Fatal(err)
	}
	var top []struct {
		Type        string `json:"type"`
		Name        string `json:"name"`
		Description string `json:"description"`
		Tools       []struct {
			Name  string `json:"name"`
			Defer bool   `json:"defer_loading"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(d.Tools, &top); err != nil {
		t.Fatal(err)
	}
	type ent struct{ typ, name, desc, tools string }
	var got []ent
	for _, e := range top {
		var fns string
		for _, f := range e.Tools {
			fns += f.Name + " "
			if !f.Defer {
				t.Errorf("%s not deferred", f.Name)
			}
		}
		got = append(got, ent{e.Type, e.Name, e.Description, fns})
	}
	want := []ent{
		{"tool_search", "", "", ""},
		{"namespace", "pets", "Every pet.", "list_pets "},
		{"namespace", "dogs", "Pets › Dogs: Dogs only.", "list_dogs add_dog "},
		{"namespace", "store", "Functions buy.", "buy "},
		{"function", "ping", "Pings.", ""},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("tools\n got %q\nwant %q", got, want)
	}
	// Given namespaces and descriptions win over the tags'.
	d, err = declare.FunctionsWith(doc, declare.OpenAIResponses, declare.Options{TagNamespaces: true,
		Namespaces: map[string]string{"buy": "pets"}, NamespaceDescriptions: map[string]string{"dogs": "Dogs."}})
	if err != nil {
		t.Fatal(err)
	}
	top = nil
	if err := json.Unmarshal(d.Tools, &top); err != nil {
		t.Fatal(err)
	}
	if len(top) != 3 || top[0].Name != "pets" || len(top[0].Tools) != 2 || top[0].Tools[1].Name != "buy" || top[1].Description != "Dogs." || top[2].Name != "ping" {
		t.Errorf("given namespaces: %s", d.Tools)
	}
	if _, err := declare.FunctionsWith(doc, declare.Anthropic, declare.Options{TagNamespaces: true}); err == nil {
		t.Error("anthropic with tag namespaces: no error")
	}
}
