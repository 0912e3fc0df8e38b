// The purchase form and the confirmation, with what they bring (the purchase client, the order's
// validation, the API contract): loaded when the buyer heads for them, not on the landing's first load.
export { Confirmation } from './confirmation.tsx';
export { PurchaseForm } from './purchase-form.tsx';
