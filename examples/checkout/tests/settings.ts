/** Where the suite runs the mock and the shop; playwright.config.ts starts both. */
export const MOCK_PORT = 8181;
export const SHOP_PORT = 3100;
export const LOC_URL = `http://localhost:${MOCK_PORT}`;
/** Any well-formed test key works with `loc mock`: it makes the key's account on first use. */
export const TEST_KEY = 'loc_test_example-shop-00000000000000000000000000000';
