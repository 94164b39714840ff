import Link from 'next/link';

/** 404 page: says what was not found and where to go. */
export default function NotFound() {
  return (
    <>
      <h1>Not found</h1>
      <p>There is nothing at this address. Go to the <Link href="/">leaderboard</Link>.</p>
    </>
  );
}
