-- Payments that must be the order's (docs/decisions/0019-billing.md).
--
-- checkout_ref: the provider's transaction the server opened for the order's checkout (Paddle:
-- transactions.create with the order's price and custom data). When set, only that transaction
-- pays the order: the browser opens it, and cannot choose another price.
--
-- review_reason, review_ref: a transaction that named the order but paid another total, currency
-- or price than the order's, or was not its checkout's transaction. The order is not paid (it
-- reads as failed, with this reason) and stays flagged here until a person has settled it with the
-- provider (refunded the transaction, or paid the order by hand).
alter table orders
  add column checkout_ref text,
  add column review_reason text check (review_reason is null
    or review_reason in ('amount_mismatch', 'currency_mismatch', 'price_mismatch', 'transaction_mismatch')),
  -- The provider's transaction that did not match (provider_ref stays for the one that paid).
  add column review_ref text;
create index orders_to_review on orders (updated_at) where review_reason is not null;
