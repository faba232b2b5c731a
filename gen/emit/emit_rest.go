package emit

// Emitters of packages generated from OpenAPI documents: the files of the
// package (files.go), the REST client (emit_rest_client.go), the method of each
// operation (emit_rest_method.go, emit_rest_stream.go) and the request it
// builds (emit_rest_request.go), and the pieces of the type emitter that only
// OpenAPI models use (emit_rest_types.go). The Tool adapter that exposes each
// operation as an OpenTool function is emitTool's.

const (
	timePath       = "time"
	httpPath       = "net/http"
	errorsPath     = "errors"
	oauth2credPath = "github.com/opentoolgen/opentoolgen/oauth2cred"
)
