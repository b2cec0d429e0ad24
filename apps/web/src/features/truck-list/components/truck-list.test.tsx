import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { NEXT_CURSOR_HEADER } from '@boomgate/contracts/primitives';
import {
  TRUCK_LIST_COUNT_HEADERS,
  type TruckListEntry,
  type TruckListSummary,
} from '@boomgate/contracts/truck-list';

import { aSession } from '@/testing/data';
import { aTruck, createGateApi, deferred } from '@/testing/gate-api';
import { signedIn } from '@/testing/handlers';
import { renderApp } from '@/testing/render-app';
import { server } from '@/testing/server';

/**
 * GET /api/truck-list as the server pages it: `pages[0]` without a cursor, then `pages[n]` for the
 * cursor `page-n`; every page carries the cards over all reads. Records the cursors asked for.
 */
function pagedTruckList(pages: TruckListEntry[][], summary: TruckListSummary) {
  const cursors: (string | null)[] = [];
  let pageHold: ReturnType<typeof deferred<void>> | undefined;
  const handler = http.get('/api/truck-list', async ({ request }) => {
    const cursor = new URL(request.url).searchParams.get('cursor');
    cursors.push(cursor);
    const index = cursor ? Number(cursor.replace('page-', '')) : 0;
    const headers: Record<string, string> = {
      [TRUCK_LIST_COUNT_HEADERS.total]: String(summary.total),
      [TRUCK_LIST_COUNT_HEADERS.withOrderNumber]: String(summary.withOrderNumber),
      [TRUCK_LIST_COUNT_HEADERS.todaysArrivals]: String(summary.todaysArrivals),
    };
    if (index + 1 < pages.length) headers[NEXT_CURSOR_HEADER] = `page-${index + 1}`;
    await pageHold?.promise;
    return HttpResponse.json(pages[index] ?? [], { headers });
  });
  return {
    handler,
    cursors,
    /** Holds every later response until the returned deferred is resolved. */
    hold: () => (pageHold = deferred()),
  };
}

describe('Truck List', () => {
  it("shows 'Loading truck data...' while loading", async () => {
    const hold = deferred();
    server.use(
      signedIn(aSession()),
      http.get('/api/truck-list', async () => {
        await hold.promise;
        return HttpResponse.json([]);
      }),
    );
    renderApp('/truck-list');

    expect(await screen.findByText('Loading truck data...')).toBeInTheDocument();
    hold.resolve();
    expect(await screen.findByText('No Trucks Yet')).toBeInTheDocument();
  });

  it('shows the cards and the table with its formats and dashes', async () => {
    const today = new Date();
    today.setHours(7, 4, 5, 0);
    const trucks = [
      aTruck({
        timestamp: today.toISOString(),
        truckNumber: 'ORD-77',
        plateNumber: 'KP35XKGP',
        category: 'contracted',
        transportName: 'Kumba Haulage',
        entryLogId: '5f0c7a1e-2b3d-4c5e-8f90-a1b2c3d4e5f6',
        trailerPlates: ['TR12ABGP'],
      }),
      aTruck({
        timestamp: '2026-01-05T10:00:00.000Z',
        truckNumber: null,
        plateNumber: 'CA123456',
        category: 'other',
        transportName: null,
      }),
    ];
    server.use(signedIn(aSession()), ...createGateApi({ trucks }).handlers);
    renderApp('/truck-list');

    expect(await screen.findByText('Recent Truck Entries')).toBeInTheDocument();
    expect(screen.getByTestId('summary-Total Trucks')).toHaveTextContent('2');
    expect(screen.getByTestId('summary-With Order Number')).toHaveTextContent('1');
    expect(screen.getByTestId("summary-Today's Arrivals")).toHaveTextContent('1');

    const headers = screen.getAllByRole('columnheader');
    expect(headers.map((cell) => cell.textContent)).toEqual([
      'Date/Time',
      'Truck Number',
      'Plate',
      'Category',
      'Transport',
    ]);
    expect(headers[3]).toHaveClass('hidden', 'md:table-cell');
    expect(headers[4]).toHaveClass('hidden', 'lg:table-cell');

    const [first, second] = screen.getAllByTestId('truck-row');
    expect(first).toHaveTextContent('07:04:05');
    expect(first).toHaveTextContent('ORD-77');
    expect(first).toHaveTextContent('KP 35 XK GP');
    expect(within(first!).getByText('contracted')).toBeInTheDocument();
    expect(first).toHaveTextContent('Kumba Haulage');
    // Issue 15: the read with a gate entry opens it; the one without is plain text.
    expect(within(first!).getByRole('link', { name: 'KP 35 XK GP' })).toHaveAttribute(
      'href',
      '/entry-logs/5f0c7a1e-2b3d-4c5e-8f90-a1b2c3d4e5f6',
    );
    expect(within(second!).queryByRole('link')).not.toBeInTheDocument();
    // Issue 21: a rig shows its trailers; a rigid truck none.
    expect(within(first!).getByTestId('truck-trailers')).toHaveTextContent('+ TR 12 AB GP');
    expect(within(second!).queryByTestId('truck-trailers')).toBeNull();
    expect(second).toHaveTextContent('Jan 05, 2026');
    const cells = within(second!).getAllByRole('cell');
    expect(cells[1]).toHaveTextContent(/^-$/);
    expect(cells[4]).toHaveTextContent(/^-$/);
  });

  it("says 'No Trucks Yet' when the camera has read none", async () => {
    server.use(signedIn(aSession()), ...createGateApi().handlers);
    renderApp('/truck-list');

    expect(await screen.findByText('No Trucks Yet')).toBeInTheDocument();
    expect(screen.getByTestId('summary-Total Trucks')).toHaveTextContent('0');
  });

  it("shows the server's counts on the cards, not the rows of the page", async () => {
    const api = pagedTruckList([[aTruck({ truckNumber: null })]], {
      total: 1250,
      withOrderNumber: 800,
      todaysArrivals: 42,
    });
    server.use(signedIn(aSession()), api.handler);
    renderApp('/truck-list');

    expect(await screen.findAllByTestId('truck-row')).toHaveLength(1);
    expect(screen.getByTestId('summary-Total Trucks')).toHaveTextContent('1250');
    expect(screen.getByTestId('summary-With Order Number')).toHaveTextContent('800');
    expect(screen.getByTestId("summary-Today's Arrivals")).toHaveTextContent('42');
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
    expect(api.cursors).toEqual([null]);
  });

  it("'Load more' fetches the next page by its cursor and appends its rows", async () => {
    const api = pagedTruckList(
      [
        [aTruck({ plateNumber: 'AAA111GP' }), aTruck({ plateNumber: 'BBB222GP' })],
        [aTruck({ plateNumber: 'CCC333GP' })],
      ],
      { total: 3, withOrderNumber: 3, todaysArrivals: 3 },
    );
    server.use(signedIn(aSession()), api.handler);
    const { user } = renderApp('/truck-list');

    expect(await screen.findAllByTestId('truck-row')).toHaveLength(2);
    const hold = api.hold();
    await user.click(screen.getByRole('button', { name: 'Load more' }));

    expect(await screen.findByRole('button', { name: 'Loading...' })).toBeDisabled();
    hold.resolve();
    await waitFor(() => expect(screen.getAllByTestId('truck-row')).toHaveLength(3));
    expect(
      screen
        .getAllByTestId('truck-row')
        .map((row) => within(row).getAllByRole('cell')[2]!.textContent),
    ).toEqual(['AAA 111 GP', 'BBB 222 GP', 'CCC 333 GP']);
    expect(api.cursors).toEqual([null, 'page-1']);
    expect(screen.queryByRole('button', { name: /Load more|Loading/ })).not.toBeInTheDocument();
    expect(screen.getByTestId('summary-Total Trucks')).toHaveTextContent('3');
  });
});
