import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { getErrorMessage } from '@/lib/api-client';
import { useTranslation } from '@/lib/i18n';

type NextPageState = {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  isFetchNextPageError: boolean;
  error: unknown;
  fetchNextPage: () => Promise<unknown>;
};

/**
 * The 'Load more' button under a paged list (our design; the spec has no paging): shown while the
 * server has a next page, disabled with 'Loading...' while it is fetched, and the failure beneath.
 */
export function LoadMore({ query, failure }: { query: NextPageState; failure: string }) {
  const { t } = useTranslation('shared');
  if (!query.hasNextPage) return null;
  return (
    <div className="flex flex-col items-center gap-2 pt-4">
      <Button
        variant="outline"
        disabled={query.isFetchingNextPage}
        onClick={() => void query.fetchNextPage()}
      >
        {query.isFetchingNextPage ? (
          <>
            <Spinner />
            {t('loadMore.loading')}
          </>
        ) : (
          t('loadMore.button')
        )}
      </Button>
      {query.isFetchNextPageError && !query.isFetchingNextPage && (
        <p role="alert" className="text-sm text-destructive">
          {getErrorMessage(query.error, failure)}
        </p>
      )}
    </div>
  );
}
