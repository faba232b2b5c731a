module github.com/opentoolgen/opentoolgen/adapters/genkittool

go 1.26.0

require github.com/opentoolgen/opentoolgen v0.0.0

require github.com/firebase/genkit/go v1.4.0 // indirect

replace github.com/opentoolgen/opentoolgen => ../..
