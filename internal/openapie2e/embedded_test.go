package openapie2e

import (
	"context"
	"encoding/json"
	"errors"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/opentoolgen/opentoolgen/runtime"
	shared "github.com/opentoolgen/opentoolgen/testdata/golden/openapi-shared"
)

// The enums of the $orderby and $select items that listUsers and
// listGroupMembers both declare inline are one Go type each, named for
// neither operation; listGroups' have other values or another description,
// so types of their own.
var (
	_ []shared.OrderbyItem           = shared.ListGroupMembersArgs{}.Orderby
	_ []shared.SelectItem            = shared.ListGroupMembersArgs{}.Select
	_ []shared.ListGroupsOrderbyItem = shared.ListGroupsArgs{}.Orderby
)

// TestEmbeddedBody sends the User component, which the arguments of
// createUser, updateUser and addGroupMember embed, from the typed client and
// through the Tool: the members travel as the body, the parameters where
// they belong, a member's null from its null flag; the Tool reads the
// parameters and the body's members from one flat arguments object and
// reports the violations of both in one error; encoding/json writes the
// arguments flat, as the tool declares them.
func TestEmbeddedBody(t *testing.T) {
	ctx := context.Background()
	f, api := newFake(t)
	c := must(shared.NewClient(api.URL))

	f.expect(exchange{method: "PATCH", path: "/users/u1", body: `{"displayName":"Ann","note":null}`, contentType: "application/json", status: 204},
		exchange{method: "POST", path: "/groups/g1/members", body: `{"id":"u2","displayName":"Bo","role":"admin"}`, contentType: "application/json", status: 204})
	args := shared.UpdateUserArgs{UserID: "u1", User: shared.User{DisplayName: "Ann"}}
	args.NoteNull = true // promoted from the embedded User
	if err := c.UpdateUser(ctx, args); err != nil {
		t.Fatal(err)
	}
	role := shared.UserRoleAdmin
	if err := c.AddGroupMember(ctx, shared.AddGroupMemberArgs{GroupID: "g1", User: shared.User{ID: ptr("u2"), DisplayName: "Bo", Role: &role}}); err != nil {
		t.Fatal(err)
	}

	// inviteUser has a parameter "user": its body is embedded by an alias.
	f.expect(exchange{method: "POST", path: "/invitations", query: "user=ann", body: `{"displayName":"Zed"}`, contentType: "application/json", status: 204})
	if err := c.InviteUser(ctx, shared.InviteUserArgs{User: ptr("ann"), InviteUserArgsBody: shared.User{DisplayName: "Zed"}}); err != nil {
		t.Fatal(err)
	}

	flat, err := json.Marshal(shared.UpdateUserArgs{UserID: "u3", User: shared.User{DisplayName: "Cy", Note: ptr("n")}})
	if err != nil || string(flat) != `{"user-id":"u3","displayName":"Cy","note":"n"}` {
		t.Errorf("json.Marshal(UpdateUserArgs) = %s, %v; want the members beside the parameter", flat, err)
	}
	var back shared.UpdateUserArgs
	if err := json.Unmarshal(flat, &back); err != nil || back.UserID != "u3" || back.DisplayName != "Cy" || back.Note == nil || *back.Note != "n" {
		t.Errorf("json.Unmarshal: %+v, %v", back, err)
	}

	tool, err := shared.NewTool(c)
	if err != nil {
		t.Fatal(err)
	}
	var params []string
	for _, fn := range tool.Document().Functions {
		if fn.Name == "updateUser" {
			for _, p := range fn.Parameters {
				params = append(params, p.Name)
			}
		}
	}
	if want := []string{"user-id", "id", "displayName", "note", "role"}; !slices.Equal(params, want) {
		t.Errorf("updateUser declares %v, want %v", params, want)
	}
	srv := httptest.NewServer(runtime.NewHandler(tool))
	defer srv.Close()
	oc := runtime.NewClient(srv.URL + "/opentool")
	var re *runtime.Error
	f.expect(exchange{method: "PATCH", path: "/users/u4", body: `{"displayName":"Di","role":"member"}`, contentType: "application/json", status: 204},
		exchange{method: "POST", path: "/users", body: `{"displayName":"Ed"}`, contentType: "application/json", status: 201, response: `{"id":"u5","displayName":"Ed"}`})
	if err := oc.Invoke(ctx, "updateUser", map[string]any{"role": "member", "user-id": "u4", "displayName": "Di", "note": nil}, "", nil); err != nil {
		t.Fatal(err)
	}
	var made shared.User
	if err := oc.Invoke(ctx, "createUser", map[string]any{"displayName": "Ed"}, "", &made); err != nil || made.ID == nil || *made.ID != "u5" {
		t.Fatalf("createUser: %+v, %v", made, err)
	}

	// deleteUser's arguments have getUser's fields, in a struct of its own.
	_ = shared.DeleteUserArgs{UserID: "u6"}
	f.expect(exchange{method: "DELETE", path: "/users/u6", status: 204})
	if err := oc.Invoke(ctx, "deleteUser", map[string]any{"user-id": "u6"}, "", nil); err != nil {
		t.Fatal(err)
	}
	if err := oc.Invoke(ctx, "deleteUser", map[string]any{}, "", nil); !errors.As(err, &re) || re.Code != -32602 || !strings.Contains(re.Message, "user-id") {
		t.Errorf("deleteUser without user-id: got %v", err)
	}

	// A parameter missing, a member too short, a role not in the enum, a
	// required member missing elsewhere: one -32602 naming each.
	err = oc.Invoke(ctx, "updateUser", map[string]any{"displayName": "", "role": "boss"}, "", nil)
	if !errors.As(err, &re) || re.Code != -32602 {
		t.Fatalf("bad arguments: got %v, want a -32602 error", err)
	}
	for _, want := range []string{"user-id", "/displayName", "/role"} {
		if !strings.Contains(re.Message, want) {
			t.Errorf("bad arguments: %q does not name %s", re.Message, want)
		}
	}
	err = oc.Invoke(ctx, "addGroupMember", map[string]any{"group-id": "g2"}, "", nil)
	if !errors.As(err, &re) || re.Code != -32602 || !strings.Contains(re.Message, "displayName") {
		t.Errorf("missing body member: got %v", err)
	}
}

// TestSharedEnumChecked: the one type of the $orderby items checks its
// values in every operation that uses it.
func TestSharedEnumChecked(t *testing.T) {
	ctx := context.Background()
	f, api := newFake(t)
	tool, err := shared.NewTool(must(shared.NewClient(api.URL)))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(runtime.NewHandler(tool))
	defer srv.Close()
	oc := runtime.NewClient(srv.URL + "/opentool")
	f.expect(exchange{method: "GET", path: "/groups/g1/members", query: "%24orderby=displayName%20desc", status: 200, response: `[]`})
	if err := oc.Invoke(ctx, "listGroupMembers", map[string]any{"group-id": "g1", "$orderby": []string{"displayName desc"}}, "", nil); err != nil {
		t.Fatal(err)
	}
	for _, fn := range []string{"listUsers", "listGroupMembers"} {
		err := oc.Invoke(ctx, fn, map[string]any{"group-id": "g1", "$orderby": []string{"name"}}, "", nil)
		var re *runtime.Error
		if !errors.As(err, &re) || re.Code != -32602 || !strings.Contains(re.Message, "/$orderby/0") {
			t.Errorf("%s with $orderby [name]: got %v, want a violation at /$orderby/0", fn, err)
		}
	}
}
