import Link from 'next/link';

/** 404 page: says what was not found and where to go. */
export default function NotFound() {
  return (
    <div data-testid="not-found">
      <h1>Not found</h1>
      <p>There is nothing at this address: the endpoint, model, provider or snapshot may not exist, or it is not public.</p>
      <ul className="link-list">
        <li>
          <Link href="/">Leaderboard</Link>
        </li>
        <li>
          <Link href="/providers">Providers</Link> and their endpoints
        </li>
        <li>
          <Link href="/models">Models</Link> and their history
        </li>
      </ul>
    </div>
  );
}
