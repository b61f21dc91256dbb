// The product's closed lists of names live at the bottom of the packages, in @vitrine/domain (its
// rules are written in them), so that the dependency runs one way: protocol → domain. This subpath
// stays for the SDK loader and the web app's first bundle, which import the lists without zod.
export * from '@vitrine/domain/vocabulary';
