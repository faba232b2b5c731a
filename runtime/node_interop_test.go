package runtime_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	otload "github.com/opentoolgen/opentoolgen/gen/load/opentool"
	"github.com/opentoolgen/opentoolgen/runtime/document"
)

// nodeLoadScript runs the TypeScript reference client's load() against a server
// and, to see why it returns null when it does, its OpenTool.fromJson on the
// same answer. Arguments: the SDK's compiled index.js, the server's base URL.
const nodeLoadScript = `
const path = require('path');
const ref = require(process.argv[1]);
const axios = require(require.resolve('axios', { paths: [path.dirname(process.argv[1])] }));
(async () => {
	const client = new ref.OpenToolClient({ host: process.argv[2] });
	const doc = await client.load();
	let error = null;
	try {
		const res = await axios.get(process.argv[2] + '/load');
		ref.OpenTool.fromJson(res.data);
	} catch (e) {
		error = String((e && e.message) || e);
	}
	console.log(JSON.stringify({ load: doc ? doc.toJson() : null, error }));
})().catch((e) => { console.error(e); process.exit(1); });
`

// The TypeScript reference client itself reads our /load. Opt-in: the SDK is
// not published on npm (its package.json names it opentool-ts, which the npm
// registry does not have), so the test needs a built checkout of
// github.com/opentool-hub/opentool-typescript:
//
//	npm install --omit=dev && npm install --no-save typescript @types/node @types/express @types/uuid && npx tsc
//	OPENTOOLGEN_NODE_INTEROP=1 OPENTOOLGEN_TS_REFERENCE=/path/to/opentool-typescript go test ./runtime -run NodeReference
func TestLoadNodeReferenceClient(t *testing.T) {
	if os.Getenv("OPENTOOLGEN_NODE_INTEROP") != "1" {
		t.Skip("opt-in: set OPENTOOLGEN_NODE_INTEROP=1 and OPENTOOLGEN_TS_REFERENCE to a built checkout of opentool-typescript to run its client with node")
	}
	dir := os.Getenv("OPENTOOLGEN_TS_REFERENCE")
	if dir == "" {
		t.Skip("OPENTOOLGEN_TS_REFERENCE is not set: the TypeScript reference SDK is not on npm; point it at a built checkout")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("no node: ", err)
	}
	var index string
	for _, p := range []string{"dist/index.js", "dist/src/index.js"} {
		if _, err := os.Stat(filepath.Join(dir, p)); err == nil {
			index = filepath.Join(dir, p)
			break
		}
	}
	if index == "" {
		t.Fatalf("%s has no dist/index.js or dist/src/index.js: build it with tsc", dir)
	}
	index, _ = filepath.Abs(index)

	run := func(t *testing.T, doc *document.OpenTool) (load []json.RawMessage, loaded bool, fromJSONError string) {
		t.Helper()
		tool := newMockTool()
		tool.doc = doc
		srv, _ := serveMock(t, tool)
		out, err := exec.Command(node, "-e", nodeLoadScript, index, srv.URL+"/opentool").CombinedOutput()
		if err != nil {
			t.Fatalf("node: %v\n%s", err, out)
		}
		var res struct {
			Load  *struct{ Functions []json.RawMessage } `json:"load"`
			Error *string                                `json:"error"`
		}
		if err := json.Unmarshal(out, &res); err != nil {
			t.Fatalf("node said %s: %v", out, err)
		}
		if res.Error != nil {
			fromJSONError = *res.Error
		}
		if res.Load == nil {
			return nil, false, fromJSONError
		}
		return res.Load.Functions, true, fromJSONError
	}
	files, _ := filepath.Glob("testdata/opentool/*.json")
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			doc := loadFile(t, file)
			fs, ok, msg := run(t, doc)
			if !ok || msg != "" || len(fs) != len(doc.Functions) {
				t.Errorf("the TypeScript client's load(): %d functions, loaded %v, OpenTool.fromJson: %q", len(fs), ok, msg)
			}
		})
	}
	// A recursive schema: the reference cannot read it in any form, and fails on
	// the first reference that closes a cycle, as the mimic does.
	t.Run("recursive", func(t *testing.T) {
		doc, err := otload.LoadOpenTool([]byte(recursiveDoc))
		if err != nil {
			t.Fatal(err)
		}
		m := refMimic{}
		_, mimicErr := m.document(loadBody(t, doc))
		_, ok, msg := run(t, doc)
		if ok || mimicErr == nil || !strings.HasSuffix(mimicErr.Error(), msg) || !strings.HasPrefix(msg, "#ref not found: ") {
			t.Errorf("loaded %v, OpenTool.fromJson: %q; the mimic: %v", ok, msg, mimicErr)
		}
	})
}
