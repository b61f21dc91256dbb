-- feature: comments
-- Spec §3 "Comment": afterCheckingCheckout and hasCheckoutMatch. A viewer's comment is checked
-- against the codes of the products its show sells (spec §4: a product code in a comment adds that
-- product to the cart); the first says the check ran, the second that the text named a product.
-- Comments from before this check, host replies and competition entries were never checked.
ALTER TABLE comments ADD COLUMN after_checking_checkout boolean NOT NULL DEFAULT false;
ALTER TABLE comments ADD COLUMN has_checkout_match boolean NOT NULL DEFAULT false;
