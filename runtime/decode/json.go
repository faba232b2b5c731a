package decode

import "encoding/json"

// emptyObject is the arguments object of a call without arguments.
var emptyObject = json.RawMessage("{}")
