/** The shop's settings the browser app shows: the server fills them into every page it sends. */
export interface ShopConfig {
  productName: string;
  feedbackUrl: string;
}
