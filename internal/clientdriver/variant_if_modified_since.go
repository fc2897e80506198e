package clientdriver

// variantIfModifiedSince: the expired card is revalidated with
// If-Modified-Since (the stored card's Last-Modified, else the Date it was
// served with, RFC 9111 §4.3.1) instead of If-None-Match. Spec §8.6.2
// (v1.0.1): "clients SHOULD use conditional requests (`If-None-Match` with
// the stored `ETag`, or `If-Modified-Since`)"; CLI-020 accepts either.
var variantIfModifiedSince = registerVariant(Variant{
	Name:        "if-modified-since",
	Description: "Revalidates the cached card with If-Modified-Since (its Last-Modified, else its Date) instead of If-None-Match.",
	Specs:       []string{"CLI-020"},
})
