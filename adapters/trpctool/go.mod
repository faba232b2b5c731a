module github.com/opentoolgen/opentoolgen/adapters/trpctool

go 1.26.0

require github.com/opentoolgen/opentoolgen v0.0.0

replace github.com/opentoolgen/opentoolgen => ../..
