/**
 * Stands in for axios's fetch adapter in the browser build (see vite.config.ts): the request layer runs
 * on the XHR adapter, which every browser has and which reports upload progress, so the fetch adapter
 * (about 5 KB gzip of the login page) would never run. `getFetch` answering undefined marks it unsupported.
 */
export const getFetch = (): undefined => undefined;
export default undefined;
