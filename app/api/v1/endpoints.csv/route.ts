import { corsPreflight, handle } from '@/app/api/_lib/respond';
import { GET as endpointsGet } from '../endpoints/route';

// GET /api/v1/endpoints.csv – the endpoint list as CSV.
export const GET = handle(async (request: Request) => {
  const headers = new Headers(request.headers);
  headers.set('accept', 'text/csv');
  return endpointsGet(new Request(request.url.replace('/endpoints.csv', '/endpoints'), { headers }));
});
export const OPTIONS = corsPreflight;
