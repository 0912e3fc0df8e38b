// The purchase form, with what it brings (the purchase client, the order's validation, the API
// contract): loaded when the buyer heads for it, not on the landing's first load.
export { PurchaseForm } from './purchase-form.tsx';
